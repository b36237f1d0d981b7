/**
 * A JSON-RPC fuzz against a real server. A few thousand generated bodies (random
 * methods, including Object.prototype keys; random params of every JSON type; broken and deeply
 * nested JSON; odd envelopes) must get client errors or results: no -32603, no HTTP 5xx.
 * Seeded, so a failure can be replayed (FUZZ_SEED, FUZZ_COUNT).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { fuzzer, runPool, STRINGS, KEYS } from '../support/fuzz';

const SEED = Number(process.env.FUZZ_SEED ?? 11);
const COUNT = Number(process.env.FUZZ_COUNT ?? 3000);
const CONCURRENCY = 6;

let app: AppServer;
beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '2' });
});
afterAll(async () => app?.stop());

const { rand, pick, int, value, object, mutate } = fuzzer(SEED);

const METHODS = [
  'message/send', 'message/stream', 'tasks/get', 'tasks/list', 'tasks/cancel', 'tasks/resubscribe', 'tasks/subscribe',
  'tasks/pushNotificationConfig/set', 'tasks/pushNotificationConfig/get', 'tasks/pushNotificationConfig/list', 'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard', 'SendMessage', 'SendStreamingMessage', 'GetTask', 'ListTasks', 'CancelTask', 'SubscribeToTask',
  'CreateTaskPushNotificationConfig', 'GetTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs', 'DeleteTaskPushNotificationConfig', 'GetExtendedAgentCard',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf', '', ' ', 'message/send ', 'MESSAGE/SEND', 'tasks/', '/', 'x'.repeat(3000),
];

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
  await runPool(bodies.length, CONCURRENCY, async (i) => {
    const { path, text } = bodies[i];
    const outcome = await fire(path, text);
    const key = `HTTP ${outcome.status} ${outcome.codes.length ? [...new Set(outcome.codes)].join('+') : '(no body)'}`;
    table.set(key, (table.get(key) ?? 0) + 1);
    if (outcome.status >= 500 || outcome.codes.includes(-32603) || outcome.codes.some((c) => Number.isNaN(c))) bad.push({ body: text.slice(0, 300), outcome });
  });
  const rows = [...table.entries()].sort((a, b) => b[1] - a[1]);
  console.log(`fuzz seed ${SEED}, ${COUNT} bodies:\n${rows.map(([k, n]) => `  ${String(n).padStart(5)}  ${k}`).join('\n')}`);
  expect(bad.slice(0, 5)).toEqual([]);
}, 600_000);
