/**
 * No idle polling storm: waiting work costs no queries beyond lease renewal. Two real
 * `next start` instances on one PostgreSQL, with a 1 s lease, each holding every kind of waiting
 * work (tests/support/waiting-work.ts) and open dashboard feeds and A2A streams on both. Over a
 * window of four leases, every statement either instance sends is lease renewal: statements on
 * the instance and turn-lease tables only, at most two per renewal interval (lease/3), and none
 * on Task, TaskEvent, PushDelivery, NotificationDelivery or any other table.
 *
 * How it is measured: PostgreSQL's own statement log (tests/support/statement-log.ts), on a
 * server this test starts for itself (it must read the server's log), so every connection is
 * seen, whatever sends on it; each instance names its connections
 * `switchboard:<instance>:<role>`, and the test first checks that all four roles (main, writer,
 * reader, listener) of both instances appear in the log, so it is blind to none of them.
 *
 * The window is the one fixed wait here, on purpose: an observation period, long enough for a
 * dozen renewals per instance, short enough that the push held in flight (10 s timeout) is still
 * waiting at its end. Before it, the test waits until the log shows both instances renewing
 * with nothing else in between (the last set-up reads have landed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { waitFor } from '../support/a2a-clients';
import { freshPgDatabase } from '../support/postgres';
import { startSdkPeer, type SdkPeer } from '../support/sdk-peer';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { startLoggedPostgres, tablesOf, type LoggedStatement, type StatementLog } from '../support/statement-log';
import { openWatchers, startHeldPush, startWaitingWork, stillWaiting, waitingWorkAnswers, waitingWorkConfig, type WaitingWork } from '../support/waiting-work';

const LEASE_MS = 1_000;
const RENEW_EVERY_MS = LEASE_MS / 3; // lib/db/postgres/cluster-member.ts
const WINDOW_MS = 4 * LEASE_MS;
const LEASE_TABLES = ['_switchboard_instances', '_switchboard_turn_leases'];
const ROLES = ['main', 'writer', 'reader', 'listener'];

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
  cleanup = [];
});

const isLeaseStatement = (s: LoggedStatement) => {
  const tables = tablesOf(s.text);
  return tables.length > 0 && tables.every((t) => LEASE_TABLES.includes(t));
};

const appOf = (instance: string) => (s: LoggedStatement) => s.app.startsWith(`switchboard:${instance}:`);

const health = async (app: AppServer) => (await fetch(`${app.url}/api/health`)).json();

/**
 * Waits until the log shows both instances renewing twice since a marker with nothing else in
 * between (a statement of anything else starts over from a new marker).
 */
async function quiet(log: StatementLog, instances: string[]): Promise<void> {
  let round = 0;
  let since = '';
  let offenders: LoggedStatement[] = [];
  const restart = () => log.mark((since = `quiet-${++round}`));
  await restart();
  try {
    await waitFor(
      async () => {
        const at = `${since}-check-${Date.now()}`;
        await log.mark(at);
        const seen = log.between(since, at);
        offenders = seen.filter((s) => !isLeaseStatement(s));
        if (offenders.length) return void (await restart());
        return instances.every((i) => seen.filter(appOf(i)).length >= 4);
      },
      30_000,
      RENEW_EVERY_MS,
    );
  } catch (err) {
    throw new Error(`the instances never went quiet; they kept sending: ${JSON.stringify(offenders.slice(-10), null, 1)}`, { cause: err });
  }
}

describe('waiting work on two instances', () => {
  it('costs no queries beyond lease renewal', async () => {
    const log = await startLoggedPostgres();
    cleanup.push(() => log.stop());
    const hooks: WebhookReceiver = await startWebhookReceiver();
    hooks.respond = waitingWorkAnswers;
    cleanup.push(() => hooks.close());
    const peer: SdkPeer = await startSdkPeer();
    cleanup.push(() => peer.close());
    const DATABASE_URL = await freshPgDatabase(log.server.url);
    const env = { DATABASE_URL, SWITCHBOARD_LEASE: String(LEASE_MS / 1000), SWITCHBOARD_CONFIG: waitingWorkConfig(hooks), SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' };
    const apps: Record<string, AppServer> = {};
    for (const id of ['a', 'b']) {
      apps[id] = await startApp({ ...env, SWITCHBOARD_INSTANCE_ID: id });
      cleanup.push(() => apps[id].kill());
    }
    const stop = new AbortController();
    cleanup.push(async () => stop.abort());

    const work: Record<string, WaitingWork> = {};
    for (const [id, app] of Object.entries(apps)) work[id] = await startWaitingWork(app.url, { peerUrl: peer.url });
    // A feed on each, and A2A streams of both slow tasks on each (the other's is relayed).
    for (const app of Object.values(apps)) await openWatchers(app.url, [work.a.slow, work.b.slow], stop.signal);
    for (const app of Object.values(apps)) await startHeldPush(app.url, hooks);
    for (const app of Object.values(apps)) {
      await waitFor(async () => {
        const { leases } = await health(app);
        return leases.held === 2 && leases.pushDeliveries.inFlight === 1 && leases.pushDeliveries.pending > 1;
      });
    }

    // Every connection of both instances is in the log under its name: the log is blind to none.
    const seen = log.statements().map((s) => s.app);
    for (const id of Object.keys(apps)) for (const role of ROLES) expect(seen, `${id}:${role}`).toContain(`switchboard:${id}:${role}`);

    await quiet(log, Object.keys(apps));
    const startedAt = Date.now();
    await log.mark('window-start');
    await new Promise((r) => setTimeout(r, WINDOW_MS)); // the observation period itself (file comment)
    await log.mark('window-end');
    const windowMs = Date.now() - startedAt; // the logged window lies within it
    const window = log.between('window-start', 'window-end');

    expect(window.filter((s) => !Object.keys(apps).some((id) => appOf(id)(s)))).toEqual([]); // nothing from unnamed connections
    expect(window.filter((s) => !isLeaseStatement(s))).toEqual([]);
    const maxPerInstance = 2 * (Math.ceil(windowMs / RENEW_EVERY_MS) + 1); // renewal + expired-row check, per interval
    for (const id of Object.keys(apps)) {
      const mine = window.filter(appOf(id));
      expect(mine.length, `statements of ${id}`).toBeGreaterThan(0); // renewing, and seen doing so
      expect(mine.length, `statements of ${id}`).toBeLessThanOrEqual(maxPerInstance);
      if (process.env.SWITCHBOARD_TEST_REPORT_TIMINGS) console.log(`instance ${id}: ${mine.length} statements in ${windowMs} ms (at most ${maxPerInstance}), ${new Set(mine.map((s) => s.text)).size} distinct`);
    }

    // What the window saw was the waiting work, still waiting.
    for (const [id, app] of Object.entries(apps)) {
      expect(await stillWaiting(app.url, work[id])).toEqual({ ask: 'input-required', slow: 'working', follow: 'working' });
      const { leases } = await health(app);
      expect(leases).toMatchObject({ held: 2, pushDeliveries: { inFlight: 1 } });
    }
  }, 180_000);
});
