/**
 * The idle rule (no queries while work waits) on the SQLite default, where a lone instance has no lease to renew: a real
 * `next start` holding every kind of waiting work (tests/support/waiting-work.ts), with a
 * dashboard feed and an A2A stream open, sends no query at all over the window. Counted with
 * SWITCHBOARD_QUERY_LOG=1 (GET /api/debug/queries, lib/db/query-counter.ts), which sees every
 * connection the app opens: Prisma's (at its driver adapter), the one the writer, the hot-path
 * reads and the repositories share (each statement, through better-sqlite3's `verbose` hook),
 * and the WAL checkpointer's (each pass). The PostgreSQL version is
 * tests/postgres/idle-queries.test.ts.
 *
 * The window is the one fixed wait, on purpose: an observation period (four seconds, longer than
 * every short timer here), ending before the push held in flight times out (10 s). Before it, the
 * test waits until the counts stop changing (the last set-up writes and reads have landed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { waitFor } from '../support/a2a-clients';
import { startSdkPeer } from '../support/sdk-peer';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { openWatchers, startHeldPush, startWaitingWork, stillWaiting, waitingWorkAnswers, waitingWorkConfig } from '../support/waiting-work';

const WINDOW_MS = 4_000;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
  cleanup = [];
});

const queryCounts = async (app: AppServer) => (await (await fetch(`${app.url}/api/debug/queries`)).json()) as Record<string, number>;

describe('waiting work on one SQLite instance', () => {
  it('costs no queries at all', async () => {
    const hooks = await startWebhookReceiver();
    hooks.respond = waitingWorkAnswers;
    cleanup.push(() => hooks.close());
    const peer = await startSdkPeer();
    cleanup.push(() => peer.close());
    const app = await startApp({ SWITCHBOARD_QUERY_LOG: '1', SWITCHBOARD_CONFIG: waitingWorkConfig(hooks), SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
    cleanup.push(() => app.kill());
    const stop = new AbortController();
    cleanup.push(async () => stop.abort());

    const work = await startWaitingWork(app.url, { peerUrl: peer.url });
    await openWatchers(app.url, [work.slow], stop.signal);
    await startHeldPush(app.url, hooks);
    let last = '';
    await waitFor(async () => {
      const now = JSON.stringify(await queryCounts(app));
      const unchanged = now === last;
      last = now;
      return unchanged;
    }, 20_000, 300);

    const before = await queryCounts(app);
    // The counter sees each connection: Prisma's, the shared one, the checkpointer's.
    for (const kind of ['prisma', 'sqlite', 'checkpoints']) expect(before[kind], kind).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, WINDOW_MS)); // the observation period itself (file comment)
    expect(await queryCounts(app)).toEqual(before);

    expect(await stillWaiting(app.url, work)).toEqual({ ask: 'input-required', slow: 'working', follow: 'working' });
  });
});
