/**
 * A fuzz of the HTTP+JSON binding and the other routes' paths against a real
 * server. Generated paths (malformed and valid percent-encoding, verbs after colons, odd
 * segments), verbs and bodies (ProtoJSON-ish messages, broken JSON, deep nesting, bodies over
 * the limit) must get client errors or results: no HTTP 5xx, every A2A error in the AIP-193
 * shape, and no stack trace in the server's log. Seeded (FUZZ_SEED, FUZZ_COUNT).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { fuzzer, runPool, STRINGS } from '../support/fuzz';

const SEED = Number(process.env.FUZZ_SEED ?? 27);
const COUNT = Number(process.env.FUZZ_COUNT ?? 3000);
const CONCURRENCY = 6;
const MAX_BODY = 64 * 1024;

let app: AppServer;
beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '2', SWITCHBOARD_MAX_BODY_BYTES: String(MAX_BODY), SWITCHBOARD_LOG_LEVEL: 'info' });
});
afterAll(async () => app?.stop());

const { rand, pick, int, value, object, mutate } = fuzzer(SEED);

const BAD_ESCAPES = ['%', '%z', '%zz', '%E0%A4%A', '%C3', '%ED%A0%80', '%FF', '%%', '%2', '%u00e9'];
const SEGMENTS = [
  'message:send', 'message:stream', 'tasks', 'extendedAgentCard', 'pushNotificationConfigs', 'x:cancel', 'x:subscribe', ':cancel', 'cancel', 'a%20b',
  'a%2Fb', '%2e%2e', '..', '.', 'task-1', '%F0%9F%98%80', 'A2A', 'tasks:', '::', 'x'.repeat(300), '%00', 'echo', 'ask',
];
const ROOTS = ['/a2a/echo', '/a2a/ask', '/a2a/slow', '/a2a/nobody', '/a2a', '/api/tasks', '/api/peers', '/tasks', '/api', ''];
const VERBS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;

function segment(): string {
  const r = rand();
  if (r < 0.25) return `${pick(SEGMENTS)}${pick(BAD_ESCAPES)}${pick(SEGMENTS)}`;
  if (r < 0.35) return encodeURIComponent(pick(STRINGS).replace(/[\ud800-\udfff]/g, ''));
  return pick(SEGMENTS);
}

function path(): string {
  const segments = Array.from({ length: int(4) }, segment).join('/');
  const query = rand() < 0.3 ? `?${pick(['pageSize', 'status', 'historyLength', 'contextId', 'A2A-Version'])}=${pick([...BAD_ESCAPES, '5', 'working', '-1', 'x'])}` : '';
  return `${pick(ROOTS)}/${segments}${query}`;
}

function message(): Record<string, unknown> {
  const m: Record<string, unknown> = { messageId: `fz-${int(1e9)}`, role: pick(['ROLE_USER', 'ROLE_AGENT', 'user', 'x']), parts: [{ text: pick(STRINGS) }] };
  if (rand() < 0.4) m.metadata = value(1);
  if (rand() < 0.2) m.parts = value(1);
  return m;
}

function body(): string | undefined {
  const r = rand();
  if (r < 0.15) return undefined;
  if (r < 0.55) return JSON.stringify(rand() < 0.7 ? { message: message() } : object(0));
  if (r < 0.75) return mutate(JSON.stringify({ message: message() }));
  if (r < 0.85) return `{"message":{"messageId":"deep","role":"ROLE_USER","parts":[{"text":"x"}],"metadata":${'{"a":'.repeat(65 + int(2000))}1${'}'.repeat(65 + int(2000))}}}`;
  if (r < 0.9) return JSON.stringify(pick([[], 1, 'x', null, true, {}]));
  return JSON.stringify({ message: { ...message(), parts: [{ text: 'x'.repeat(MAX_BODY + int(MAX_BODY)) }] } });
}

interface Outcome {
  status: number;
  shape: 'aip-193' | 'api' | 'ok' | 'other';
}

function shapeOf(status: number, text: string): Outcome['shape'] {
  if (status < 400) return 'ok';
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; status?: unknown; details?: unknown } }).error;
    if (typeof error?.code === 'number' && typeof error.status === 'string' && Array.isArray(error.details)) return 'aip-193';
    if (typeof error?.code === 'string') return 'api';
  } catch {
    // not JSON: an HTML page (a 404 outside /api and /a2a) is "other"
  }
  return 'other';
}

it(`${COUNT} generated HTTP+JSON requests and paths: no 5xx, A2A errors in AIP-193 shape, no stack trace logged`, async () => {
  const requests = Array.from({ length: COUNT }, () => ({ verb: pick(VERBS), path: path(), body: body() }));
  const table = new Map<string, number>();
  const bad: { request: string; outcome: Outcome }[] = [];
  await runPool(requests.length, CONCURRENCY, async (i) => {
    const { verb, path: p, body: text } = requests[i];
    const withBody = text !== undefined && verb !== 'GET';
    const res = await fetch(`${app.url}${p}`, { method: verb, headers: withBody ? { 'content-type': 'application/json' } : {}, body: withBody ? text : undefined, signal: AbortSignal.timeout(30_000) });
    const outcome = { status: res.status, shape: shapeOf(res.status, await res.text()) };
    const key = `HTTP ${outcome.status} ${outcome.shape}`;
    table.set(key, (table.get(key) ?? 0) + 1);
    // Below a slug, after the URL's own `.`/`..` resolution: the HTTP+JSON binding.
    const a2aPath = /^\/a2a\/[^/]+\/+[^/]/.test(new URL(`${app.url}${p}`).pathname);
    if (outcome.status >= 500 || (a2aPath && outcome.status >= 400 && outcome.shape !== 'aip-193')) bad.push({ request: `${verb} ${p.slice(0, 200)} ${text?.slice(0, 200) ?? ''}`, outcome });
  });
  const rows = [...table.entries()].sort((a, b) => b[1] - a[1]);
  console.log(`REST fuzz seed ${SEED}, ${COUNT} requests:\n${rows.map(([k, n]) => `  ${String(n).padStart(5)}  ${k}`).join('\n')}`);
  expect(bad.slice(0, 5)).toEqual([]);
  expect(app.logs()).not.toMatch(/\n\s+at \S+ \(|"stack":/);
}, 600_000);
