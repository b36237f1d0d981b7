/**
 * In-process micro-benchmark of one streamed chunk's server work, piece by piece:
 * `npx tsx bench/micro/stream-chunk.mts [chunks]`. CPU µs per chunk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-micro-'));
process.env.DATABASE_URL = `file:${path.join(dir, 'micro.db')}`;
process.env.SWITCHBOARD_LOG_LEVEL = 'error';
const N = Number(process.argv[2] ?? 20000);

const repo = await import('../../lib/db/task-repo');
const { taskWriter } = await import('../../lib/db/client');
const { toStreamEvent } = await import('../../lib/engine/inbound/stream-events');
const { streamEventToV10 } = await import('../../lib/protocol/v10');
const { sseData } = await import('../../lib/protocol/sse-frames');

function cpu(label: string, n: number, fn: () => void | Promise<void>) {
  return (async () => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const c = process.cpuUsage(c0);
    console.log(`${label.padEnd(48)} ${(((c.user + c.system) / n)).toFixed(1).padStart(6)} µs cpu/chunk ${(((performance.now() - t0) * 1000) / n).toFixed(1).padStart(6)} µs wall`);
  })();
}

const text = 'x'.repeat(499) + '\n';
const chunk = (i: number) => ({ artifact: { artifactId: 'result', name: 'result', parts: [{ kind: 'text', text }] }, append: i > 0, lastChunk: false });
await repo.insertTask({ id: 't1', contextId: 'c', direction: 'inbound', agentSlug: 'slow', state: 'working', requestText: 'x' }, [{ type: 'status', state: 'working', payload: { message: { kind: 'message', messageId: 'p', role: 'agent', parts: [{ kind: 'text', text: 'working for 0 s in 2000 chunks' }] } } }], []);
await repo.appendEvents('t1', [{ type: 'status', state: 'working', payload: {} }], { patch: { statusMessage: { kind: 'message', messageId: 'p', role: 'agent', parts: [{ kind: 'text', text: '25% done' }] }, metadata: { a: 1 } } });

const w = taskWriter();
await cpu('writer.append sync, one tx per chunk', N / 4, () => {
  for (let i = 0; i < N / 4; i++) w.append('t1', [{ type: 'artifact', payload: chunk(i) }], {}, { onlyIfStateIn: ['working'] }, [], false);
});
await cpu('writer.append sync, 256 per tx', N, () => {
  const tx = w.conn.transaction((from: number) => { for (let i = from; i < from + 256 && i < N; i++) w.append('t1', [{ type: 'artifact', payload: chunk(i) }], {}, { onlyIfStateIn: ['working'] }, [], false); });
  for (let i = 0; i < N; i += 256) tx(i);
});
await cpu('repo.appendEvents queued (256 ahead)', N, async () => {
  let last: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < N; i++) {
    last = repo.appendEvents('t1', [{ type: 'artifact', payload: chunk(i) }], { onlyIfStateIn: ['working'] });
    if (i % 256 === 255) await last;
  }
  await last;
});
const change = (await repo.appendEvents('t1', [{ type: 'artifact', payload: chunk(1) }], { onlyIfStateIn: ['working'] }))!;
await cpu('toStreamEvent + v10 + sseData (wire)', N, () => {
  for (let i = 0; i < N; i++) sseData({ jsonrpc: '2.0', id: 1, result: streamEventToV10(toStreamEvent(change.events[0], 'c')!) });
});
await cpu('TextEncoder.encode of the frame', N, () => {
  const f = sseData({ jsonrpc: '2.0', id: 1, result: streamEventToV10(toStreamEvent(change.events[0], 'c')!) });
  const e = new TextEncoder();
  for (let i = 0; i < N; i++) e.encode(f);
});
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
