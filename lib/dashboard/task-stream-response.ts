/**
 * Turns taskStreamFrames into an HTTP answer: everything that can fail (lookup, 404) happens
 * before the SSE headers go out, by peeking the first frame (the a2a-js adapter pattern).
 */
import { sseFromIterator } from './sse';
import { taskStreamFrames } from './task-stream';

async function* prepend(first: string, rest: AsyncGenerator<string>): AsyncGenerator<string> {
  yield first;
  yield* rest;
}

export async function taskStreamResponse(req: Request, taskId: string, afterSeq: number | null): Promise<Response> {
  const stop = new AbortController();
  const frames = taskStreamFrames(taskId, afterSeq, stop.signal);
  // A missing task throws its ClientError (404) here, before any SSE header; apiRoute answers it.
  const first = await frames.next();
  const source = first.done ? frames : prepend(first.value, frames);
  return sseFromIterator(source, stop, { signal: req.signal });
}
