/**
 * Every kind of waiting work at once on a running Switchboard, for the idle-cost tests
 * (tests/postgres/idle-queries.test.ts, tests/protocol/idle-queries.test.ts): an inbound task in
 * input-required, a long inbound turn that emits nothing for minutes, an outbound task followed
 * on a real a2a-js peer whose task stays WORKING and silent, a push delivery in flight to a
 * webhook that never answers with more pending behind it (push retries are short and fixed: a
 * push waits in flight or behind one, not on a far timer), an operator notification waiting an
 * hour for its retry after its target answered 500, and an open dashboard feed and A2A stream.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rpc, waitFor } from './a2a-clients';
import { dispatch, readTask } from './dispatch-api';
import type { WebhookReceiver } from './webhook-receiver';

/** A config file with one rule: input-required tasks notify `hooks`/ops, retried after an hour. */
export function waitingWorkConfig(hooks: WebhookReceiver): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-idle-')), 'switchboard.json');
  const rule = { name: 'ops', on: ['input-required'], url: `${hooks.url}/ops`, allowPrivate: true, retries: 5, backoffSeconds: 3600 };
  fs.writeFileSync(file, JSON.stringify({ notifications: [rule] }));
  return file;
}

/** Webhook answers for waitingWorkConfig and startWaitingWork: notifications 500, pushes never. */
export const waitingWorkAnswers: WebhookReceiver['respond'] = ({ path: p }) => (p === '/ops' ? 500 : 'hold');

const send = (text: string, configuration: Record<string, unknown> = { blocking: false }) => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
  configuration,
});

async function sent(url: string, params: unknown): Promise<{ id: string; status: { state: string } }> {
  const { body } = await rpc(url, 'message/send', params);
  if (!body?.result?.id) throw new Error(`message/send to ${url} failed: ${JSON.stringify(body)}`);
  return body.result;
}

/** Opens a streaming response and resolves once its first bytes arrived (the stream is then live). */
export async function openStream(url: string, init: RequestInit, signal: AbortSignal): Promise<void> {
  const res = await fetch(url, { ...init, signal });
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
  const reader = res.body.getReader();
  await reader.read();
  // Keep reading (keepalives) so the server never sees a stalled client; ends with the abort.
  void (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
  })();
}

export interface WaitingWork {
  ask: string;
  slow: string;
  follow: string;
}

/**
 * Starts each kind of waiting work but the push on `app` and waits until each is waiting: the
 * follow knows the peer's task, the notification's first attempt got its 500.
 */
export async function startWaitingWork(appUrl: string, opts: { peerUrl: string }): Promise<WaitingWork> {
  const ask = (await sent(`${appUrl}/a2a/ask`, send('hello', { blocking: true }))).id;
  const slow = (await sent(`${appUrl}/a2a/slow`, send('work 600s chunks 1'))).id;
  const follow = await dispatch(appUrl, { url: opts.peerUrl, text: 'chunks 1 every 600000ms', mode: 'streaming', protocolVersion: '1.0' });
  await waitFor(async () => {
    const view = await readTask(appUrl, follow);
    return view.task.state === 'working' && view.task.remoteTaskId;
  });
  await waitFor(async () => {
    const res = await fetch(`${appUrl}/api/tasks/${ask}/notifications`);
    const { deliveries } = (await res.json()) as { deliveries: { state: string; attempts: number }[] };
    return deliveries.length === 1 && deliveries[0].state === 'pending' && deliveries[0].attempts === 1;
  });
  return { ask, slow, follow };
}

/**
 * A task whose first status push is held in flight by `hooks` (it never answers) and whose later
 * ones wait behind it. Start it last: the held POST times out after 10 s.
 */
export async function startHeldPush(appUrl: string, hooks: WebhookReceiver): Promise<string> {
  const pushed = (await sent(`${appUrl}/a2a/slow`, send('work 0.2s chunks 1', { blocking: true, pushNotificationConfig: { url: `${hooks.url}/push` } }))).id;
  await waitFor(async () => hooks.received.some((r) => r.path === '/push' && (r.body as { id?: string }).id === pushed));
  return pushed;
}

/** A dashboard feed, and an A2A stream (tasks/resubscribe) of each of `slowTasks`, on `appUrl`, open until `signal` aborts. */
export async function openWatchers(appUrl: string, slowTasks: string[], signal: AbortSignal): Promise<void> {
  await openStream(`${appUrl}/api/feed`, {}, signal);
  for (const id of slowTasks) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/resubscribe', params: { id } });
    await openStream(`${appUrl}/a2a/slow`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' }, body }, signal);
  }
}

/** The waiting work is still waiting (what the measured window saw is what it meant to). */
export async function stillWaiting(appUrl: string, work: WaitingWork): Promise<Record<string, string>> {
  const state = async (id: string) => (await readTask(appUrl, id)).task.state;
  return { ask: await state(work.ask), slow: await state(work.slow), follow: await state(work.follow) };
}
