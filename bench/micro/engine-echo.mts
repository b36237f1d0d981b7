/**
 * In-process micro-benchmark of the echo path without HTTP or Next: where do the milliseconds of
 * one blocking send go? `npx tsx bench/micro/engine-echo.mts [N]`
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-micro-'));
process.env.DATABASE_URL = `file:${path.join(dir, 'micro.db')}`;
process.env.SWITCHBOARD_LOG_LEVEL = 'error';
const N = Number(process.argv[2] ?? 3000);

const { sendMessage } = await import('../../lib/engine/inbound/operations');
const { findAgent } = await import('../../lib/agents/registry');
const repo = await import('../../lib/db/task-repo');
const { taskToV10 } = await import('../../lib/protocol/v10');
const { callerScope, ANONYMOUS_OWNER } = await import('../../lib/db/task-scope');
const agent = findAgent('echo')!;
const scope = callerScope('echo', ANONYMOUS_OWNER);

async function time(label: string, n: number, fn: (i: number) => Promise<unknown>, concurrency = 1) {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) await fn(next++);
  }));
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = (cpu.user + cpu.system) / n;
  console.log(`${label.padEnd(40)} ${(ms / n * 1000).toFixed(0).padStart(6)} µs/op wall ${cpuUs.toFixed(0).padStart(6)} µs/op cpu (${n} ops, concurrency ${concurrency})`);
}

const send = (i: number) => sendMessage({ agent, message: { kind: 'message', messageId: `m${i}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] }, peer: 'bench', scope }, 'blocking');
await time('warm-up sendMessage', 500, send);
await time('sendMessage (blocking, echo)', N, send);
await time('sendMessage (blocking, echo) x50', N, send, 50);
const sendSig = (i: number) => sendMessage({ agent, message: { kind: 'message', messageId: `s${i}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] }, peer: 'bench', scope, signal: new Request('http://x/', { method: 'POST' }).signal }, 'blocking');
await time('sendMessage with a Request signal x50', N, sendSig, 50);
const sendSig2 = (i: number) => sendMessage({ agent, message: { kind: 'message', messageId: `s${i}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] }, peer: 'bench', scope, signal: new AbortController().signal }, 'blocking');
await time('sendMessage with an AbortController signal x50', N, sendSig2, 50);
const { serveJsonRpc } = await import('../../lib/server/serve-jsonrpc');
const rpc = (i: number) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: `r${i}`, role: 'ROLE_USER', parts: [{ text: 'hello' }] } } });
  return serveJsonRpc(new Request('http://127.0.0.1/a2a/echo', { method: 'POST', body, headers: { 'content-type': 'application/json', 'a2a-version': '1.0' } }), agent).then((r) => r.text());
};
await time('serveJsonRpc (Request → text) x50', N, rpc, 50);
await time('new Request + text() only x50', N, (i) => new Request('http://127.0.0.1/a2a/echo', { method: 'POST', body: `{"i":${i}}` }).text(), 50);
const { SendSchemas } = await import('../../lib/server/params');
const { authenticateInbound } = await import('../../lib/auth/api-keys');
const { readBodyText } = await import('../../lib/server/read-body');
const params = { message: { messageId: 'x', role: 'ROLE_USER', parts: [{ text: 'hello' }] } };
await time('zod SendSchemas[1.0].safeParse', N, async () => void SendSchemas['1.0'].safeParse(params));
await time('authenticateInbound', N, () => authenticateInbound(new Request('http://127.0.0.1/a2a/echo', { method: 'POST', body: 'x' })));
await time('readBodyText', N, () => readBodyText(new Request('http://127.0.0.1/a2a/echo', { method: 'POST', body: '{"a":1}' }), 1e6));
const t = await send(0);
await time('Response.json(task v10) + text()', N, () => Response.json({ jsonrpc: '2.0', id: 1, result: { task: taskToV10(t) } }).text());
await time('findTask ', N, () => repo.findTask(t.id));
await time('listEvents ', N, () => repo.listEvents(t.id, 0));
await time('listMessages ', N, () => repo.listMessages(t.id));
await time('listStoredArtifacts ', N, () => repo.listStoredArtifacts(t.id));
await time('taskToV10 + JSON.stringify', N, async () => JSON.stringify(taskToV10(t)));
await time('insertTask', N, (i) => repo.insertTask({ id: `x${i}`, contextId: 'c', direction: 'inbound', agentSlug: 'echo', state: 'working', requestText: 'hello' }, [{ type: 'submitted', state: 'submitted', payload: {} }, { type: 'status', state: 'working', payload: {} }], [{ kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hello' }] }]));
await time('appendEvents (artifact, guarded)', N, (i) => repo.appendEvents(`x${i}`, [{ type: 'artifact', payload: { artifact: { artifactId: 'echo', parts: [{ kind: 'text', text: 'hello' }] } } }], { onlyIfStateIn: ['working'] }));
await time('appendEvents (terminal + materialize)', N, (i) => repo.appendEvents(`x${i}`, [{ type: 'status', state: 'completed', payload: {} }], { onlyIfNotTerminal: true, materializeArtifacts: true, patch: { state: 'completed', endedAt: new Date() } }));
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
