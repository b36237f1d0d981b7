/**
 * Several real `next start` instances on one PostgreSQL database. Any instance answers
 * anything (streams on B see A's task live, in seq order, with Last-Event-ID replay), cancel on B
 * stops the turn on A, the terminal claim holds across instances, and after `kill -9` of A the
 * survivor takes over A's work once the lease expired: A's turns end FAILED `interrupted:
 * instance lost` (an input-required task stays answerable), A's outbound follow resumes, and A's
 * pending push deliveries are sent (the one in flight again, same id), and so are A's pending
 * operator notifications (owned through the same lease). After a graceful stop of A (its row
 * removed, announced), B resumes A's outbound follow.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { freshPgDatabase } from '../support/postgres';
import { artifactText, dispatch, readTask, waitForTask } from '../support/dispatch-api';
import { pushReceipts, startWebhookReceiver } from '../support/webhook-receiver';
import { groupAlive, processGroupOf } from '../support/processes';
import { startSdkPeer } from '../support/sdk-peer';

let apps: AppServer[] = [];
afterEach(async () => {
  await Promise.all(apps.map((a) => a.kill()));
  apps = [];
});

async function twoInstances(env: Record<string, string> = {}): Promise<[AppServer, AppServer, string]> {
  const DATABASE_URL = await freshPgDatabase();
  const a = await startApp({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'a', ...env });
  const b = await startApp({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'b', ...env });
  apps.push(a, b);
  return [a, b, DATABASE_URL];
}

const send = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
  configuration: { blocking: false },
});

const getTask = async (app: AppServer, slug: string, id: string) => (await rpc(`${app.url}/a2a/${slug}`, 'tasks/get', { id })).body.result;

/** Reads a dashboard task stream to its end; returns the seqs of its task-event frames (not the snapshot's or end's). */
async function streamSeqs(app: AppServer, id: string, lastEventId?: number): Promise<{ seqs: number[]; text: string }> {
  const res = await fetch(`${app.url}/api/tasks/${id}/events`, { headers: lastEventId === undefined ? {} : { 'Last-Event-ID': String(lastEventId) } });
  expect(res.status).toBe(200);
  const text = await res.text();
  const seqs = [...text.matchAll(/^id: (\d+)\nevent: task-event$/gm)].map((m) => Number(m[1]));
  return { seqs, text };
}

const health = async (app: AppServer) => (await fetch(`${app.url}/api/health`)).json();

/** A push receiver that never answers the first POST it gets (it stays in flight), and 200 to the others. */
async function holdingWebhook() {
  const receiver = await startWebhookReceiver();
  receiver.respond = ({ nth }) => (nth === 1 ? 'hold' : 200);
  return {
    url: `${receiver.url}/hook`,
    get receipts() {
      return pushReceipts(receiver);
    },
    close: () => receiver.close(),
  };
}

/**
 * Operator notification rules (config file) for a task that ends failed (the `budget` agent):
 * `held` never answers its first POST (it stays in flight) and 200 to the others; `retry` answers
 * 500 to its first POST, and is retried after `retryBackoffSeconds`.
 */
async function notificationRules(retryBackoffSeconds: number, names: ('held' | 'retry')[] = ['held', 'retry']) {
  const receiver = await startWebhookReceiver();
  receiver.respond = ({ path: p, nth }) => (nth > 1 ? 200 : p === '/held' ? 'hold' : 500);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-notify-'));
  const rule = (name: string, backoffSeconds: number) => ({ name, on: ['task-failed'], url: `${receiver.url}/${name}`, allowPrivate: true, retries: 3, backoffSeconds });
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify({ notifications: names.map((name) => rule(name, name === 'held' ? 0.2 : retryBackoffSeconds)) }));
  return {
    config: path.join(dir, 'switchboard.json'),
    /** The POSTs to one rule's target, in arrival order. */
    posts: (rule: string) => receiver.received.filter((r) => r.path === `/${rule}`),
    close: () => receiver.close(),
  };
}

const failingTask = async (app: AppServer) => (await rpc(`${app.url}/a2a/budget`, 'message/send', send('steps 4 budget 2'))).body.result.id as string;

interface DeliveryView {
  rule: string;
  state: string;
  attempts: number;
  attemptLog: { status?: number; error?: string }[];
}

const deliveriesOf = async (app: AppServer, taskId: string) =>
  ((await (await fetch(`${app.url}/api/tasks/${taskId}/notifications`)).json()) as { deliveries: DeliveryView[] }).deliveries;

/** Opens a dashboard feed (GET /api/feed); `states` resolves once `done` holds for the task states seen so far. */
async function watchFeed(app: AppServer, done: (states: Map<string, string[]>) => boolean, signal: AbortSignal): Promise<{ states: Promise<Map<string, string[]>> }> {
  const res = await fetch(`${app.url}/api/feed`, { signal });
  return { states: readFeed(res, done) };
}

async function readFeed(res: Response, done: (states: Map<string, string[]>) => boolean): Promise<Map<string, string[]>> {
  const states = new Map<string, string[]>();
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return states;
      buffer += value;
      const frames = buffer.split('\n\n');
      buffer = frames.pop()!;
      for (const frame of frames) {
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (!frame.includes('event: tasks') || !data) continue;
        for (const t of (JSON.parse(data.slice(6)) as { tasks: { id: string; state: string }[] }).tasks) states.set(t.id, [...(states.get(t.id) ?? []), t.state]);
      }
      if (done(states)) return states;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

describe('two instances on one PostgreSQL', () => {
  it('report the store, their lease and a listening notification listener', async () => {
    const [a, b] = await twoInstances();
    for (const [app, name] of [[a, 'a'], [b, 'b']] as const) {
      const h = await health(app);
      expect(h).toMatchObject({ ok: true, store: 'postgresql', instance: name, listener: { state: 'listening' }, leases: { leaseMs: 15_000, pushDeliveries: { pending: 0, inFlight: 0, takenOver: 0 }, notificationDeliveries: { pending: 0, inFlight: 0, takenOver: 0 } } });
    }
  });

  it('streams on A and B follow a task running on A live, in seq order, and B replays after Last-Event-ID', async () => {
    const [a, b] = await twoInstances();
    // 150 ms between chunks: at 50 ms the streams, opened after the send returns, missed more than
    // the first events on a loaded machine.
    const sent = await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 6s chunks 40'));
    const id = sent.body.result.id;
    const [live, onTheOther] = await Promise.all([streamSeqs(b, id), streamSeqs(a, id)]);
    // Both gapless, in order, to the same last event (where each began depends on when it connected).
    expect(onTheOther.seqs).toEqual(onTheOther.seqs.map((_, i) => onTheOther.seqs[0] + i));
    expect(onTheOther.seqs.at(-1)).toBe(live.seqs.at(-1));
    expect(live.text).toContain('event: end');
    expect(live.seqs.length).toBeGreaterThan(40);
    expect(live.seqs).toEqual(live.seqs.map((_, i) => live.seqs[0] + i)); // gapless, in order
    const onA = await getTask(a, 'slow', id);
    expect(onA.status.state).toBe('completed');
    const last = live.seqs[live.seqs.length - 1];
    const replay = await streamSeqs(b, id, 10);
    expect(replay.seqs).toEqual(Array.from({ length: last - 10 }, (_, i) => 11 + i));
  });

  it('the dashboards on both instances see a task sent to A progress and end', async () => {
    const [a, b] = await twoInstances();
    const stop = new AbortController();
    let id = '';
    const completed = (states: Map<string, string[]>) => !!id && (states.get(id) ?? []).includes('completed');
    try {
      const feeds = await Promise.all([watchFeed(a, completed, stop.signal), watchFeed(b, completed, stop.signal)]); // both subscribed
      id = (await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 1s chunks 4'))).body.result.id;
      const [onA, onB] = await Promise.all(feeds.map((f) => f.states));
      expect(onA.get(id)).toContain('completed');
      expect(onB.get(id)).toContain('completed');
      expect(onB.get(id)![0]).not.toBe('completed'); // B saw it live, before its end
    } finally {
      stop.abort();
    }
  });

  it('cancel on B stops the turn running on A and kills its launcher\'s process tree there', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-cancel-'));
    const stubborn = { slug: 'stubborn', name: 'Stubborn', launcher: { type: 'process', command: [path.resolve('tests/fixtures/agents/stubborn-tree.mjs'), path.join(dir, 'pids.json'), 'hang'], killGraceMs: 200 } };
    fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify({ agents: [stubborn] }));
    const [a, b] = await twoInstances({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json') });
    const id = (await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 60s chunks 60'))).body.result.id;
    const launched = (await rpc(`${a.url}/a2a/stubborn`, 'message/send', send('x'))).body.result.id;
    const pids = await waitFor(async () => fs.existsSync(path.join(dir, 'pids.json')) && JSON.parse(fs.readFileSync(path.join(dir, 'pids.json'), 'utf8')));
    const pgid = processGroupOf(pids.leader);
    expect(groupAlive(pgid)).toBe(true);
    await waitFor(async () => (await health(a)).leases.held === 2);
    for (const [slug, task] of [['slow', id], ['stubborn', launched]]) {
      const canceled = await rpc(`${b.url}/a2a/${slug}`, 'tasks/cancel', { id: task });
      expect(canceled.body.result.status.state).toBe('canceled');
    }
    await waitFor(async () => (await health(a)).leases.held === 0, 10_000);
    await waitFor(async () => !groupAlive(pgid), 10_000);
    expect((await getTask(a, 'slow', id)).status.state).toBe('canceled');
  });

  it('after kill -9 of A, its launched tree ends at once (its guardian), long before B ends the task', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-dead-'));
    const stubborn = { slug: 'stubborn', name: 'Stubborn', launcher: { type: 'process', command: [path.resolve('tests/fixtures/agents/stubborn-tree.mjs'), path.join(dir, 'pids.json'), 'hang'], killGraceMs: 200 } };
    fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify({ agents: [stubborn] }));
    // A long lease: B may not end A's task within the test, so only the guardian can end the tree.
    const [a, b] = await twoInstances({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_LEASE: '60' });
    const launched = (await rpc(`${a.url}/a2a/stubborn`, 'message/send', send('x'))).body.result.id;
    const pids = await waitFor(async () => fs.existsSync(path.join(dir, 'pids.json')) && JSON.parse(fs.readFileSync(path.join(dir, 'pids.json'), 'utf8')));
    const pgid = processGroupOf(pids.leader);
    expect(groupAlive(pgid)).toBe(true);
    const killedAt = Date.now();
    await a.kill();
    await waitFor(async () => !groupAlive(pgid), 10_000);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect((await getTask(b, 'stubborn', launched)).status.state).not.toMatch(/failed|canceled|completed/); // B has not judged A yet
  });

  it('the terminal claim holds across instances: 1,000 completions racing cancels from the other instance end each task once', async () => {
    // 100 sends and 100 cancels a round from one caller: above the default per-caller rate
    // (200 requests/s, shared by the instances), which would refuse some sends with -32029.
    const unlimited = { SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER: '1000000', SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER: '1000000' };
    const [a, b, url] = await twoInstances(unlimited);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const ids: string[] = [];
    const wins = { canceled: 0, completed: 0 };
    try {
      // Ten rounds of 100 races, alternately run on A and canceled from B, and the other way round.
      // How long a turn takes on a loaded machine is unknown, so the cancel's delay grows while
      // cancels win a whole round.
      for (let round = 0, delayMs = 2; round < 10; round++) {
        const [runs, cancels] = round % 2 === 0 ? [a, b] : [b, a];
        const roundIds = await Promise.all(
          Array.from({ length: 100 }, async (_, i) => {
            const sent = await rpc(`${runs.url}/a2a/slow`, 'message/send', send(i % 4 === 0 ? 'work 300ms chunks 1' : `work ${(i % 7) * 3}ms chunks 1`));
            expect(sent.body.error).toBeUndefined();
            const id = sent.body.result.id as string;
            await new Promise((r) => setTimeout(r, delayMs + ((i * 7) % 13)));
            await rpc(`${cancels.url}/a2a/slow`, 'tasks/cancel', { id });
            return id;
          }),
        );
        ids.push(...roundIds);
        await waitFor(async () => (await client.query('SELECT count(*)::int AS n FROM "Task" WHERE "id" = ANY($1) AND "endedAt" IS NOT NULL', [roundIds])).rows[0].n === roundIds.length);
        const { rows } = await client.query<{ state: string; n: number }>('SELECT "state", count(*)::int AS n FROM "Task" WHERE "id" = ANY($1) GROUP BY "state"', [roundIds]);
        for (const r of rows) if (r.state === 'canceled' || r.state === 'completed') wins[r.state] += r.n;
        if (!rows.some((r) => r.state === 'completed')) delayMs *= 3;
      }
      const { rows } = await client.query<{ taskId: string; n: number; state: string; eventState: string }>(
        `SELECT e."taskId", count(*)::int AS n, max(t."state") AS state, max(e."state") AS "eventState" FROM "TaskEvent" e JOIN "Task" t ON t."id" = e."taskId"
         WHERE e."taskId" = ANY($1) AND e."type" = 'status' AND e."state" IN ('completed','failed','canceled','rejected') GROUP BY e."taskId"`,
        [ids],
      );
      expect(ids).toHaveLength(1_000);
      expect(rows).toHaveLength(ids.length);
      expect(rows.filter((r) => r.n !== 1 || r.state !== r.eventState)).toEqual([]);
      expect(wins.canceled).toBeGreaterThan(0); // the race was real: both sides won some
      expect(wins.completed).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it('after kill -9 of A, B takes over its work: the slow turn ends "interrupted: instance lost", the outbound follow resumes, the pending pushes are sent', async () => {
    const hook = await holdingWebhook();
    try {
      const [a, b] = await twoInstances({ SWITCHBOARD_LEASE: '1', SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
      // A slow turn on A, and an input-required task (no turn: it must stay answerable).
      const slow = (await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 60s chunks 60'))).body.result.id;
      const ask = await rpc(`${a.url}/a2a/ask`, 'message/send', { ...send('hello'), configuration: { blocking: true } });
      expect(ask.body.result.status.state).toBe('input-required');
      // An outbound follow on A; the peer is B's own `slow` agent, so its task lives on when A dies.
      const follow = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 4s chunks 8', mode: 'streaming', protocolVersion: '1.0' });
      // Pushes owned by A: the webhook holds the first POST, so the others stay pending behind it.
      const pushed = (await rpc(`${a.url}/a2a/slow`, 'message/send', { ...send('work 0.3s chunks 2'), configuration: { blocking: false, pushNotificationConfig: { url: hook.url } } })).body.result.id;
      await waitFor(async () => (await getTask(a, 'slow', pushed)).status.state === 'completed');
      await waitFor(async () => {
        const view = await readTask(a.url, follow);
        return view.task.remoteTaskId && view.events.some((e) => e.type === 'artifact');
      });
      const onA = await waitFor(async () => {
        const h = await health(a);
        return h.leases.held === 2 && h.leases.pushDeliveries.inFlight === 1 && h.leases.pushDeliveries.pending > 1 ? h : null;
      });
      expect(hook.receipts).toHaveLength(1);
      const [inFlight] = hook.receipts;
      const killedAt = Date.now();
      await a.kill();

      const ended = await waitFor(async () => {
        const t = await getTask(b, 'slow', slow);
        return t.status.state !== 'working' ? t : null;
      });
      expect(ended.status.state).toBe('failed');
      expect(ended.metadata.switchboard.endReason).toBe('interrupted: instance lost');

      const done = await waitForTask(b.url, follow);
      expect(done.task.state).toBe('completed');
      expect(artifactText(done)).toBe(artifactText(await readTask(b.url, done.task.remoteTaskId!)));
      expect(done.events.filter((e) => e.type === 'status' && e.state === 'completed')).toHaveLength(1);

      await waitFor(async () => hook.receipts.some((r) => r.state === 'completed'));
      const resent = hook.receipts.slice(1);
      if (process.env.SWITCHBOARD_TEST_REPORT_TIMINGS) console.log(`push takeover: first POST from B ${resent[0].at - killedAt} ms after kill -9 of A (lease 1 s)`);
      expect(resent[0].key).toBe(inFlight.key); // its outcome was unknown: sent again, same id
      expect(resent.map((r) => r.seq)).toEqual([...new Set(resent.map((r) => r.seq))].sort((x, y) => x - y)); // the pending ones: once each, in order
      expect(resent.length).toBe(onA.leases.pushDeliveries.pending);
      const onB = await health(b);
      expect(onB.leases.takenOver).toBe(2); // the turn and the follow
      expect(onB.leases.pushDeliveries).toMatchObject({ takenOver: onA.leases.pushDeliveries.pending, pending: 0, inFlight: 0 });

      const reply = await rpc(`${b.url}/a2a/ask`, 'message/send', { message: { messageId: 'r', role: 'user', taskId: ask.body.result.id, parts: [{ kind: 'text', text: 'Grace' }] } });
      expect(reply.body.result.status.state).toBe('completed');
    } finally {
      await hook.close();
    }
  });

  it('a graceful stop of A hands its pending pushes to B at once, not after the lease', async () => {
    const hook = await holdingWebhook();
    try {
      // A lease of 10 minutes: only A's announcement can make B take over within the test.
      const [a, b] = await twoInstances({ SWITCHBOARD_LEASE: '600', SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
      const id = (await rpc(`${a.url}/a2a/slow`, 'message/send', { ...send('work 0.3s chunks 2'), configuration: { blocking: false, pushNotificationConfig: { url: hook.url } } })).body.result.id;
      await waitFor(async () => (await getTask(a, 'slow', id)).status.state === 'completed');
      const pending = (await waitFor(async () => {
        const h = await health(a);
        return h.leases.pushDeliveries.inFlight === 1 && h.leases.pushDeliveries.pending > 1 ? h : null;
      })).leases.pushDeliveries.pending as number;
      await a.stop(); // the attempt in flight times out (the webhook never answers it), then A leaves
      await waitFor(async () => hook.receipts.some((r) => r.state === 'completed'), 30_000);
      const fromB = hook.receipts.slice(1);
      expect(fromB.map((r) => r.seq)).toEqual([...new Set(fromB.map((r) => r.seq))].sort((x, y) => x - y));
      expect(fromB).toHaveLength(pending);
      expect(fromB[0].key).toBe(hook.receipts[0].key); // timed out on A: sent again by B, same id
      expect((await health(b)).leases.pushDeliveries.takenOver).toBe(pending);
    } finally {
      await hook.close();
    }
  });

  it('after kill -9 of A, B sends A\'s pending notifications within the lease: the one in flight again (same id), the one waiting to retry once, when due', async () => {
    const rules = await notificationRules(8);
    try {
      const [a, b] = await twoInstances({ SWITCHBOARD_LEASE: '1', SWITCHBOARD_CONFIG: rules.config });
      const id = await failingTask(a);
      // On A: `held` in flight (no answer), `retry` refused with a 500 and waiting for its retry.
      await waitFor(async () => {
        const h = await health(a);
        return rules.posts('held').length === 1 && rules.posts('retry').length === 1 && h.leases.notificationDeliveries.pending === 2 && h.leases.notificationDeliveries.inFlight === 1;
      });
      const killedAt = Date.now();
      await a.kill();
      // Bounded by the lease (1 s) and a renewal period; the claim this replaced hid it for 60 s.
      await waitFor(async () => rules.posts('held').length === 2, 20_000);
      if (process.env.SWITCHBOARD_TEST_REPORT_TIMINGS) console.log(`notification takeover: first POST from B ${rules.posts('held')[1].at - killedAt} ms after kill -9 of A (lease 1 s)`);
      const log = await waitFor(async () => {
        const list = await deliveriesOf(b, id);
        return list.length === 2 && list.every((d) => d.state === 'delivered') ? list : null;
      });
      for (const rule of ['held', 'retry']) {
        const posts = rules.posts(rule);
        expect(posts, rule).toHaveLength(2); // A's attempt, then B's: once each
        expect(new Set(posts.map((p) => p.headers['idempotency-key'])).size, rule).toBe(1);
      }
      const byRule = Object.fromEntries(log.map((d) => [d.rule, d]));
      expect(byRule.held.attempts).toBe(2);
      expect(byRule.held.attemptLog[0].error).toMatch(/outcome unknown/); // A's POST, never answered
      expect(byRule.retry).toMatchObject({ attempts: 2, attemptLog: [{ status: 500 }, { status: 200 }] });
      expect((await health(b)).leases.notificationDeliveries).toEqual({ pending: 0, inFlight: 0, takenOver: 2 });
    } finally {
      await rules.close();
    }
  });

  it('a live instance\'s notifications are never taken: A\'s retry, due after three leases, is sent by A', async () => {
    const rules = await notificationRules(3, ['retry']);
    try {
      const [a, b, url] = await twoInstances({ SWITCHBOARD_LEASE: '1', SWITCHBOARD_CONFIG: rules.config });
      const id = await failingTask(a);
      await waitFor(async () => rules.posts('retry').length === 2, 30_000);
      await waitFor(async () => (await deliveriesOf(a, id)).every((d) => d.state === 'delivered'));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query('SELECT DISTINCT "owner" FROM "NotificationDelivery" WHERE "taskId" = $1', [id]);
        expect(rows).toEqual([{ owner: 'a' }]);
      } finally {
        await client.end();
      }
      expect((await health(b)).leases.notificationDeliveries.takenOver).toBe(0);
      expect(rules.posts('retry')).toHaveLength(2);
    } finally {
      await rules.close();
    }
  });

  it('a graceful stop of A hands its pending notification to B at once, not after the lease', async () => {
    const rules = await notificationRules(5, ['retry']);
    try {
      // A lease of 10 minutes: only A's announcement can make B take over within the test.
      const [a, b] = await twoInstances({ SWITCHBOARD_LEASE: '600', SWITCHBOARD_CONFIG: rules.config });
      const id = await failingTask(a);
      await waitFor(async () => rules.posts('retry').length === 1);
      await a.stop(); // before its retry is due
      await waitFor(async () => rules.posts('retry').length === 2, 30_000);
      await waitFor(async () => (await deliveriesOf(b, id))[0]?.state === 'delivered');
      expect((await health(b)).leases.notificationDeliveries).toEqual({ takenOver: 1, pending: 0, inFlight: 0 });
    } finally {
      await rules.close();
    }
  });

  it('a graceful stop of A: B resumes its outbound follow, which only A\'s announcement that it left can tell B', async () => {
    const peer = await startSdkPeer();
    try {
      const [a, b] = await twoInstances({ SWITCHBOARD_LEASE: '1' });
      const follow = await dispatch(a.url, { url: peer.url, text: 'chunks 3 every 1500ms', mode: 'streaming', protocolVersion: '1.0' });
      await waitFor(async () => (await readTask(a.url, follow)).task.remoteTaskId && (await health(a)).leases.held === 1);
      await a.stop(); // its row goes at once (no lease expires), its follow's lease stays
      const done = await waitForTask(b.url, follow);
      expect(done.task.state).toBe('completed');
      expect((await health(b)).leases.takenOver).toBe(1);
    } finally {
      await peer.close();
    }
  });

  it('a push config registered on B for a task running on A: A delivers the completion, once', async () => {
    const deliveries: { id?: string; status?: { state: string } }[] = [];
    const webhook = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        deliveries.push(JSON.parse(data));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`;
    try {
      const [a, b] = await twoInstances({ SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
      const id = (await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 2s chunks 4'))).body.result.id;
      const set = await rpc(`${b.url}/a2a/slow`, 'tasks/pushNotificationConfig/set', { taskId: id, pushNotificationConfig: { url: hookUrl, token: 'from-b' } });
      expect(set.body.result.pushNotificationConfig.url).toBe(hookUrl);
      const completedPushes = (taskId: string) => deliveries.filter((d) => d.id === taskId && d.status?.state === 'completed').length;
      await waitFor(async () => completedPushes(id) >= 1);
      // A later task's completion push arrives after any duplicate of the first would have.
      const sentinel = (await rpc(`${a.url}/a2a/slow`, 'message/send', { ...send('work 0.2s chunks 1'), configuration: { blocking: false, pushNotificationConfig: { url: hookUrl } } })).body.result.id;
      await waitFor(async () => completedPushes(sentinel) >= 1);
      expect(completedPushes(id)).toBe(1);
    } finally {
      webhook.close();
    }
  });
});
