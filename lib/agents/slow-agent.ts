import type { AgentRunner } from '../agent-runner';
import { sleep } from '../util/abortable';
import { durationMs, namedNumber } from './turn-input';

/** What one `slow` task may produce; asking for more is refused before any work starts. */
export const SLOW_LIMITS = { maxChunks: 10_000, maxChunkBytes: 64 * 1024, maxOutputBytes: 4 * 1024 * 1024, maxDurationMs: 86_400_000 };

function chunkText(index: number, size: number): string {
  const head = `chunk ${String(index + 1).padStart(5, '0')} `;
  return (head + '.'.repeat(Math.max(0, size - head.length - 1))).slice(0, size - 1) + '\n';
}

/** Why the knobs ask for more than the agent may produce, or null. */
function overLimit(totalMs: number, chunks: number, size: number): string | null {
  if (!(totalMs <= SLOW_LIMITS.maxDurationMs)) return `work: at most ${SLOW_LIMITS.maxDurationMs / 1000} s`;
  if (chunks > SLOW_LIMITS.maxChunks) return `chunks: at most ${SLOW_LIMITS.maxChunks} (asked ${chunks})`;
  if (size > SLOW_LIMITS.maxChunkBytes) return `size: at most ${SLOW_LIMITS.maxChunkBytes} bytes per chunk (asked ${size})`;
  if (chunks * size > SLOW_LIMITS.maxOutputBytes) return `chunks × size: at most ${SLOW_LIMITS.maxOutputBytes} bytes of output (asked ${chunks * size})`;
  return null;
}

/**
 * A long task: runs for the requested duration ("work 45s", or metadata.durationSeconds),
 * reporting progress and streaming its result as append:true artifact chunks
 * ("chunks 2000 size 500", or metadata.chunks / metadata.size), then completes. Asking for more
 * output than SLOW_LIMITS is rejected up front (producing less and completing would be a
 * truncated result reported as complete).
 */
export const slowRunner: AgentRunner = {
  async runTurn(turn) {
    const total = durationMs(turn, 5_000);
    const chunks = Math.max(1, namedNumber(turn, 'chunks', 5));
    const size = Math.max(8, namedNumber(turn, 'size', 32));
    const refusal = overLimit(total, chunks, size);
    if (refusal) return { state: 'rejected', reason: `output limit: ${refusal}` };
    const stepMs = total / chunks;
    let nextProgress = 0.25;
    await turn.emit.progress(`working for ${total / 1000} s in ${chunks} chunks`);
    for (let i = 0; i < chunks; i++) {
      if (stepMs >= 1 && !(await sleep(stepMs, turn.signal))) break;
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
