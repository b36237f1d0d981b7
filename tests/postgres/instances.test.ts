/**
 * Issue 15: several real `next start` instances on one PostgreSQL database. Any instance answers
 * anything (streams on B see A's task live, in seq order, with Last-Event-ID replay), cancel on B
 * stops the turn on A, the terminal claim holds across instances, and after `kill -9` of A the
 * survivor ends A's turns FAILED `interrupted: instance lost` once the lease expired, while an
 * input-required task stays answerable.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { freshPgDatabase } from '../support/postgres';
import { artifactText, dispatch, readTask, waitForTask } from '../support/dispatch-api';

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
      expect(h).toMatchObject({ ok: true, store: 'postgresql', instance: name, listener: { state: 'listening' }, leases: { leaseMs: 15_000 } });
    }
  });

  it('a stream on B follows a task running on A live, in seq order, and replays after Last-Event-ID', async () => {
    const [a, b] = await twoInstances();
    const sent = await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 2s chunks 40'));
    const id = sent.body.result.id;
    const live = await streamSeqs(b, id);
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

  it('cancel on B stops the turn running on A', async () => {
    const [a, b] = await twoInstances();
    const sent = await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 60s chunks 60'));
    const id = sent.body.result.id;
    await waitFor(async () => (await health(a)).leases.held === 1);
    const canceled = await rpc(`${b.url}/a2a/slow`, 'tasks/cancel', { id });
    expect(canceled.body.result.status.state).toBe('canceled');
    await waitFor(async () => (await health(a)).leases.held === 0, 10_000);
    expect((await getTask(a, 'slow', id)).status.state).toBe('canceled');
  });

  it('the terminal claim holds across instances: completions on A racing cancels on B end each task once', async () => {
    const [a, b, url] = await twoInstances();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const ids: string[] = [];
    const wins = { canceled: 0, completed: 0 };
    try {
      // Rounds of 100 races until both sides have won some (at most 1,000): how long a turn takes
      // on a loaded machine is unknown, so the cancel's delay grows while cancels win them all.
      for (let round = 0, delayMs = 2; round < 10 && (ids.length < 200 || !wins.canceled || !wins.completed); round++) {
        const roundIds = await Promise.all(
          Array.from({ length: 100 }, async (_, i) => {
            const sent = await rpc(`${a.url}/a2a/slow`, 'message/send', send(i % 4 === 0 ? 'work 300ms chunks 1' : `work ${(i % 7) * 3}ms chunks 1`));
            const id = sent.body.result.id as string;
            await new Promise((r) => setTimeout(r, delayMs + ((i * 7) % 13)));
            await rpc(`${b.url}/a2a/slow`, 'tasks/cancel', { id });
            return id;
          }),
        );
        ids.push(...roundIds);
        await waitFor(async () => (await client.query(`SELECT count(*)::int AS n FROM "Task" WHERE "id" = ANY($1) AND "endedAt" IS NOT NULL`, [roundIds])).rows[0].n === roundIds.length);
        const { rows } = await client.query<{ state: string; n: number }>(`SELECT "state", count(*)::int AS n FROM "Task" WHERE "id" = ANY($1) GROUP BY "state"`, [roundIds]);
        for (const r of rows) if (r.state === 'canceled' || r.state === 'completed') wins[r.state] += r.n;
        if (!rows.some((r) => r.state === 'completed')) delayMs *= 3;
      }
      const { rows } = await client.query<{ taskId: string; n: number; state: string; eventState: string }>(
        `SELECT e."taskId", count(*)::int AS n, max(t."state") AS state, max(e."state") AS "eventState" FROM "TaskEvent" e JOIN "Task" t ON t."id" = e."taskId"
         WHERE e."taskId" = ANY($1) AND e."type" = 'status' AND e."state" IN ('completed','failed','canceled','rejected') GROUP BY e."taskId"`,
        [ids],
      );
      expect(rows).toHaveLength(ids.length);
      expect(rows.filter((r) => r.n !== 1 || r.state !== r.eventState)).toEqual([]);
      expect(wins.canceled).toBeGreaterThan(0); // the race was real: both sides won some
      expect(wins.completed).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it('after kill -9 of A, B ends its running turn FAILED "interrupted: instance lost"; input-required stays answerable', async () => {
    const [a, b] = await twoInstances({ SWITCHBOARD_LEASE: '1' });
    const slow = (await rpc(`${a.url}/a2a/slow`, 'message/send', send('work 60s chunks 60'))).body.result.id;
    const ask = await rpc(`${a.url}/a2a/ask`, 'message/send', { ...send('hello'), configuration: { blocking: true } });
    expect(ask.body.result.status.state).toBe('input-required');
    await waitFor(async () => (await health(a)).leases.held === 1);
    await a.kill();
    const ended = await waitFor(async () => {
      const t = await getTask(b, 'slow', slow);
      return t.status.state !== 'working' ? t : null;
    });
    expect(ended.status.state).toBe('failed');
    expect(ended.metadata.switchboard.endReason).toBe('interrupted: instance lost');
    expect((await health(b)).leases.takenOver).toBe(1);
    const reply = await rpc(`${b.url}/a2a/ask`, 'message/send', { message: { messageId: 'r', role: 'user', taskId: ask.body.result.id, parts: [{ kind: 'text', text: 'Grace' }] } });
    expect(reply.body.result.status.state).toBe('completed');
  });

  it('after kill -9 of A, B resumes the outbound follow A was running and records the whole result', async () => {
    const [a, b] = await twoInstances({ SWITCHBOARD_LEASE: '1' });
    // The peer is B's own `slow` agent: its task lives on (inbound on B) when A dies.
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 4s chunks 8', mode: 'streaming', protocolVersion: '1.0' });
    await waitFor(async () => {
      const view = await readTask(a.url, taskId);
      return view.task.remoteTaskId && view.events.some((e) => e.type === 'artifact');
    });
    await a.kill();
    const done = await waitForTask(b.url, taskId);
    expect(done.task.state).toBe('completed');
    expect(artifactText(done)).toBe(artifactText(await readTask(b.url, done.task.remoteTaskId!)));
    expect(done.events.filter((e) => e.type === 'status' && e.state === 'completed')).toHaveLength(1);
    expect((await health(b)).leases.takenOver).toBeGreaterThanOrEqual(1);
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
