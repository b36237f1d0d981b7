/**
 * One connection to a task's live stream (GET /api/tasks/:id/events), as parsed SSE frames.
 * `afterSeq` becomes Last-Event-ID, so a reconnect gets exactly the events it missed (the server
 * replays them from the database) instead of a new snapshot.
 */
import { SseParser, type SseEvent } from '../client/sse';
import { headersFor, refusal, unreachable, type ApiTarget } from './api';

export class StreamDropped extends Error {}

export async function* taskStreamFrames(target: ApiTarget, taskId: string, afterSeq: number | null, signal: AbortSignal): AsyncGenerator<SseEvent> {
  let res: Response;
  try {
    res = await fetch(`${target.baseUrl}/api/tasks/${encodeURIComponent(taskId)}/events`, {
      headers: headersFor(target, { Accept: 'text/event-stream', ...(afterSeq !== null ? { 'Last-Event-ID': String(afterSeq) } : {}) }),
      signal,
    });
  } catch (err) {
    if (signal.aborted) return;
    throw unreachable(target, err);
  }
  // A server that is restarting may answer 502/503 for a moment: that is a drop, not a refusal.
  if (res.status >= 500) throw new StreamDropped(`HTTP ${res.status}`);
  if (!res.ok) throw await refusal(target, res, `task ${taskId}`);
  if (!res.body) throw new StreamDropped('no body');
  const parser = new SseParser();
  const reader = res.body.getReader();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal.aborted) return;
        throw new StreamDropped(err instanceof Error ? err.message : String(err));
      }
      if (chunk.done) return;
      yield* parser.push(chunk.value);
    }
  } finally {
    reader.releaseLock();
  }
}
