import type { AgentRunner } from '../engine/agent';
import { abortableSleep } from './abortable-sleep';
import { durationMs, namedNumber } from './turn-input';

const MAX_CHUNKS = 100_000;
const MAX_CHUNK_BYTES = 64 * 1024;

function chunkText(index: number, size: number): string {
  const head = `chunk ${String(index + 1).padStart(5, '0')} `;
  return (head + '.'.repeat(Math.max(0, size - head.length - 1))).slice(0, size - 1) + '\n';
}

/**
 * A long task: runs for the requested duration ("work 45s", or metadata.durationSeconds),
 * reporting progress and streaming its result as append:true artifact chunks
 * ("chunks 2000 size 500", or metadata.chunks / metadata.size), then completes.
 */
export const slowRunner: AgentRunner = {
  async runTurn(turn) {
    const total = durationMs(turn, 5_000);
    const chunks = Math.min(MAX_CHUNKS, Math.max(1, namedNumber(turn, 'chunks', 5)));
    const size = Math.min(MAX_CHUNK_BYTES, Math.max(8, namedNumber(turn, 'size', 32)));
    const stepMs = total / chunks;
    let nextProgress = 0.25;
    await turn.emit.progress(`working for ${total / 1000} s in ${chunks} chunks`);
    for (let i = 0; i < chunks; i++) {
      if (stepMs >= 1 && !(await abortableSleep(stepMs, turn.signal))) break;
      if (turn.signal.aborted) break;
      await turn.emit.artifact({
        artifact: { artifactId: 'result', name: 'result', parts: [{ kind: 'text', text: chunkText(i, size) }] },
        append: i > 0,
        lastChunk: i === chunks - 1,
      });
      if ((i + 1) / chunks >= nextProgress && i + 1 < chunks) {
        await turn.emit.progress(`${Math.round(nextProgress * 100)}% done`);
        nextProgress += 0.25;
      }
    }
    if (turn.signal.aborted) return { state: 'failed', reason: `aborted: ${String(turn.signal.reason)}` };
    return { state: 'completed', parts: [{ kind: 'text', text: `done: ${chunks} chunks of ${size} bytes` }] };
  },
};
