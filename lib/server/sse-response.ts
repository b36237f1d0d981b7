/**
 * An A2A event stream as an HTTP response, for both bindings (JSON-RPC wraps each result in a
 * response envelope; HTTP+JSON sends the StreamResponse itself). The first batch is pulled
 * before committing to SSE, so an early error is thrown to the caller and answered as a plain
 * error; each later batch (the events that committed together) goes out as one write.
 */
import { SSE_HEADERS, SSE_KEEPALIVE } from '../protocol/sse-frames';
import { getSettings } from '../config/settings';
import { countSubscriber } from '../metrics/subscribers';

export interface SseFraming {
  frame: (result: unknown) => string;
  errorFrame: (err: unknown) => string;
}

export async function sseBatchResponse(batches: AsyncGenerator<unknown[]>, framing: SseFraming): Promise<Response> {
  const first = await batches.next();
  const encoder = new TextEncoder();
  let keepalive: NodeJS.Timeout | undefined;
  const frames = (results: unknown[]) => {
    let text = '';
    for (const result of results) text += framing.frame(result);
    return text;
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const uncount = countSubscriber('a2a');
      const send = (chunk: string) => controller.enqueue(encoder.encode(chunk));
      keepalive = setInterval(() => send(SSE_KEEPALIVE), getSettings().sseKeepaliveMs);
      try {
        if (!first.done) send(frames(first.value));
        for (let step = await batches.next(); !step.done; step = await batches.next()) send(frames(step.value));
      } catch (err) {
        send(framing.errorFrame(err));
      } finally {
        clearInterval(keepalive);
        uncount();
        try {
          controller.close();
        } catch {
          // the client already went away
        }
      }
    },
    cancel() {
      // The client went away. The request signal already stops the observation (and detaches
      // the task); this only releases the generator once its pending step settles.
      clearInterval(keepalive);
      void batches.return(undefined);
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
