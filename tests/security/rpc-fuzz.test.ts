/**
 * Issue 11 §3: a JSON-RPC fuzz against a real server. A few thousand generated bodies (random
 * methods, including Object.prototype keys; random params of every JSON type; broken and deeply
 * nested JSON; odd envelopes) must get client errors or results: no -32603, no HTTP 5xx.
 * Seeded, so a failure can be replayed (FUZZ_SEED, FUZZ_COUNT).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';

const SEED = Number(process.env.FUZZ_SEED ?? 11);
const COUNT = Number(process.env.FUZZ_COUNT ?? 3000);
const CONCURRENCY = 6;

let app: AppServer;
beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '2' });
});
afterAll(async () => app?.stop());

/** mulberry32: small, seedable, good enough to pick shapes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
const int = (n: number) => Math.floor(rand() * n);

const METHODS = [
  'message/send', 'message/stream', 'tasks/get', 'tasks/list', 'tasks/cancel', 'tasks/resubscribe', 'tasks/subscribe',
  'tasks/pushNotificationConfig/set', 'tasks/pushNotificationConfig/get', 'tasks/pushNotificationConfig/list', 'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard', 'SendMessage', 'SendStreamingMessage', 'GetTask', 'ListTasks', 'CancelTask', 'SubscribeToTask',
  'CreateTaskPushNotificationConfig', 'GetTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs', 'DeleteTaskPushNotificationConfig', 'GetExtendedAgentCard',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf', '', ' ', 'message/send ', 'MESSAGE/SEND', 'tasks/', '/', 'x'.repeat(3000),
];
const KEYS = [
  'message', 'id', 'taskId', 'contextId', 'messageId', 'role', 'parts', 'kind', 'text', 'data', 'file', 'metadata', 'configuration', 'blocking', 'returnImmediately',
  'historyLength', 'pageSize', 'pageToken', 'status', 'statusTimestampAfter', 'includeArtifacts', 'pushNotificationConfig', 'taskPushNotificationConfig', 'url',
  'token', 'authentication', 'schemes', 'credentials', 'pushNotificationConfigId', 'name', 'tenant', 'content', 'mediaType', 'raw', 'uri', 'bytes',
  '__proto__', 'constructor', 'prototype', 'toString', 'extensions', 'referenceTaskIds', 'acceptedOutputModes', 'durationSeconds', 'chunks', 'steps',
];
const STRINGS = [
  '', ' ', 'user', 'agent', 'ROLE_USER', 'ROLE_AGENT', 'text', 'data', 'file', 'completed', 'TASK_STATE_WORKING', 'working', 'http://127.0.0.1:1/hook',
  'https://10.0.0.1/x', 'not a url', 'javascript:alert(1)', '2026-01-01T00:00:00Z', 'garbage-date', '\u0000', '\ud800', '😀', '%E0%A4%A', '../../etc/passwd',
  'eyJjcmVhdGVkQXQiOiJ4IiwiaWQiOiJ5In0', 'W10', '-1', 'NaN', 'true', 'null', '{}', '[]', 'steps 3 budget 1 stepMs 0', 'hello',
];
const SPECIALS = [0, -1, 1, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, true, false, null];

function value(depth: number): unknown {
  const r = rand();
  if (depth > 4 || r < 0.3) return pick([...STRINGS, ...STRINGS.map((s) => s.repeat(1 + int(3)))]);
  if (r < 0.45) return pick(SPECIALS);
  if (r < 0.6) return Array.from({ length: int(4) }, () => value(depth + 1));
  return object(depth + 1);
}

function object(depth: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = int(5); i >= 0; i--) o[pick(KEYS)] = value(depth);
  return o;
}

function plausibleMessage(): Record<string, unknown> {
  const m: Record<string, unknown> = { kind: 'message', messageId: `fz-${int(1e9)}`, role: pick(['user', 'agent', 'ROLE_USER', 'x']), parts: [{ kind: 'text', text: pick(STRINGS) }] };
  if (rand() < 0.5) m[pick(KEYS)] = value(1);
  if (rand() < 0.3) m.parts = value(1);
  return m;
}

function envelope(): unknown {
  const params = rand() < 0.5 ? { message: plausibleMessage(), ...(rand() < 0.5 ? object(1) : {}) } : rand() < 0.9 ? object(0) : value(0);
  const body: Record<string, unknown> = { jsonrpc: rand() < 0.95 ? '2.0' : pick(['1.0', 2, null]), id: rand() < 0.9 ? int(1e6) : value(2), method: pick(METHODS), params };
  if (rand() < 0.05) delete body[pick(['jsonrpc', 'id', 'method', 'params'])];
  return body;
}

function mutate(text: string): string {
  const chars = [...text];
  for (let i = 1 + int(4); i > 0; i--) {
    const at = int(chars.length + 1);
    const r = rand();
    if (r < 0.3) chars.splice(at, 1);
    else if (r < 0.6) chars.splice(at, 0, pick(['{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', 'e9999', '-']));
    else chars.length = Math.min(chars.length, at);
  }
  return chars.join('');
}

function body(): string {
  const r = rand();
  if (r < 0.6) return JSON.stringify(envelope());
  if (r < 0.8) return mutate(JSON.stringify(envelope()));
  if (r < 0.85) return `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":${'['.repeat(60 + int(20000))}`;
  if (r < 0.9) return JSON.stringify(pick([[], [envelope()], 1, 'x', null, true, {}]));
  if (r < 0.95) return JSON.stringify({ jsonrpc: '2.0', id: 1, method: pick(METHODS), params: { id: pick(STRINGS), pageToken: Buffer.from(JSON.stringify(value(1))).toString('base64url') } });
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { ...plausibleMessage(), parts: [{ kind: 'text', text: 'x'.repeat(int(1_200_000)) }] } } });
}

type Outcome = { status: number; codes: (number | 'result')[] };

function codesIn(text: string): (number | 'result')[] {
  const docs = text.trimStart().startsWith('{') ? [text] : text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  return docs.map((d) => {
    try {
      const parsed = JSON.parse(d) as { error?: { code?: number } };
      return parsed.error ? (parsed.error.code ?? NaN) : 'result';
    } catch {
      return NaN;
    }
  });
}

async function fire(path: string, text: string): Promise<Outcome> {
  const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, codes: codesIn(await res.text()) };
}

it(`${COUNT} generated JSON-RPC bodies: no internal error, no 5xx`, async () => {
  const bodies = Array.from({ length: COUNT }, () => ({ path: pick(['/a2a', '/a2a/echo', '/a2a/ask', '/a2a/budget']), text: body() }));
  const table = new Map<string, number>();
  const bad: { body: string; outcome: Outcome }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const { path, text } = bodies[next++];
        const outcome = await fire(path, text);
        const key = `HTTP ${outcome.status} ${outcome.codes.length ? [...new Set(outcome.codes)].join('+') : '(no body)'}`;
        table.set(key, (table.get(key) ?? 0) + 1);
        if (outcome.status >= 500 || outcome.codes.includes(-32603) || outcome.codes.some((c) => Number.isNaN(c))) bad.push({ body: text.slice(0, 300), outcome });
      }
    }),
  );
  const rows = [...table.entries()].sort((a, b) => b[1] - a[1]);
  console.log(`fuzz seed ${SEED}, ${COUNT} bodies:\n${rows.map(([k, n]) => `  ${String(n).padStart(5)}  ${k}`).join('\n')}`);
  expect(bad.slice(0, 5)).toEqual([]);
}, 600_000);
