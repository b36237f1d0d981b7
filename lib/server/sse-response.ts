/**
 * An A2A event stream as an HTTP response, for both bindings (JSON-RPC wraps each result in a
 * response envelope; HTTP+JSON sends the StreamResponse itself). The first batch is pulled
 * before committing to SSE, so an early error is thrown to the caller and answered as a plain
 * error; each later batch (the events that committed together) goes out as one write.
 * A frame whose event carries a generation gets it as its `id:`, so a standard EventSource that
 * reconnects sends it back as Last-Event-ID and the subscription resumes right after it.
 */
import { SSE_HEADERS, SSE_KEEPALIVE } from '../protocol/sse-frames';
import { getSettings } from '../config/settings';
import { countSubscriber } from '../metrics/subscribers';

export interface SseFraming {
  /** `id`: the result's generation, when it has one. */
  frame: (result: unknown, id: number | undefined) => string;
  errorFrame: (err: unknown) => string;
}

type Json = { [key: string]: unknown };
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null;

/**
 * The generation a stream result carries in `metadata.switchboard.generation` (the generation
 * extension, lib/engine/inbound/stream-events.ts): on the event itself (v0.3) or inside its StreamResponse
 * member (v1.0: statusUpdate, artifactUpdate, task).
 */
export function generationOf(result: unknown): number | undefined {
  if (!isJson(result)) return undefined;
  const event = result.statusUpdate ?? result.artifactUpdate ?? result.task ?? result;
  const switchboard = isJson(event) && isJson(event.metadata) ? event.metadata.switchboard : undefined;
  const generation = isJson(switchboard) ? switchboard.generation : undefined;
  return typeof generation === 'number' ? generation : undefined;
}

export async function sseBatchResponse(batches: AsyncGenerator<unknown[]>, framing: SseFraming): Promise<Response> {
  const first = await batches.next();
  const encoder = new TextEncoder();
  let keepalive: NodeJS.Timeout | undefined;
  const frames = (results: unknown[]) => {
    let text = '';
    for (const result of results) text += framing.frame(result, generationOf(result));
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
