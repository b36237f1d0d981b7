// Canned A2A v1.0 answers, the same shapes and sizes Switchboard sends, built without storage.
import { randomUUID } from 'node:crypto';

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
};

const now = () => new Date().toISOString();

export function textOf(message) {
  return (message?.parts ?? []).map((p) => p.text ?? '').join('');
}

export function completedTask(message) {
  const id = randomUUID();
  const contextId = randomUUID();
  return {
    id,
    contextId,
    status: { state: 'TASK_STATE_COMPLETED', timestamp: now() },
    artifacts: [{ artifactId: 'echo', name: 'echo', parts: [{ text: textOf(message) }] }],
    history: [{ ...message, taskId: id, contextId }],
  };
}

/** The same chunk text as lib/agents/slow-agent.ts. */
function chunkText(index, size) {
  const head = `chunk ${String(index + 1).padStart(5, '0')} `;
  return (head + '.'.repeat(Math.max(0, size - head.length - 1))).slice(0, size - 1) + '\n';
}

const named = (text, name, fallback) => Number(new RegExp(`${name}\\s+(\\d+)`).exec(text)?.[1] ?? fallback);

/** The stream a chunking agent produces: the task, N append:true artifact chunks, completed. */
export function* chunkStream(message) {
  const text = textOf(message);
  const chunks = named(text, 'chunks', 5);
  const size = named(text, 'size', 32);
  const taskId = randomUUID();
  const contextId = randomUUID();
  yield { task: { id: taskId, contextId, status: { state: 'TASK_STATE_WORKING', timestamp: now() }, history: [{ ...message, taskId, contextId }] } };
  for (let i = 0; i < chunks; i++) {
    const artifact = { artifactId: 'result', name: 'result', parts: [{ text: chunkText(i, size) }] };
    yield { artifactUpdate: { taskId, contextId, artifact, ...(i > 0 ? { append: true } : {}), ...(i === chunks - 1 ? { lastChunk: true } : {}) } };
  }
  yield { statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_COMPLETED', timestamp: now() } } };
}
