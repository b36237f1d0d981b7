/**
 * Server-sent events for the dashboard, shared by the per-task stream and the global feed.
 * Frames carry `id:` (the event seq where there is one) and `event:`; a `: keepalive` comment
 * goes out every SWITCHBOARD_SSE_KEEPALIVE (KEEPALIVE_MS, 2 s) so proxies keep the connection and a dead one gets noticed.
 * Both the request's abort and the stream's cancel end the source, whichever comes first.
 */
import { errorMessage, log } from '../log';
import { encodeFrame, SSE_HEADERS, SSE_KEEPALIVE } from '../protocol/sse-frames';
import { getSettings } from '../config/settings';
import { countSubscriber } from '../metrics/subscribers';

/** Tells EventSource how soon to reconnect after a drop. */
export const RETRY_MS = 1_500;
/** A feed subscriber this far behind is dropped; it reconnects and refetches instead. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

interface StreamOptions {
  signal: AbortSignal;
  keepaliveMs?: number;
}

/**
 * A Response that streams `source` with backpressure (one frame per pull). `stop` is aborted
 * when the client leaves; pass it on to whatever the source waits on, so a pending next() ends.
 */
export function sseFromIterator(source: AsyncIterator<string>, stop: AbortController, opts: StreamOptions): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const uncount = countSubscriber('dashboard');
  const finish = () => {
    if (timer) clearInterval(timer);
    uncount();
    if (!stop.signal.aborted) stop.abort();
  };
  opts.signal.addEventListener('abort', finish, { once: true });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n\n`));
      timer = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(SSE_KEEPALIVE));
      }, opts.keepaliveMs ?? getSettings().sseKeepaliveMs);
    },
    async pull(controller) {
      try {
        const step = await source.next();
        if (closed) return;
        if (step.done) {
          closed = true;
          finish();
          controller.close();
        } else {
          controller.enqueue(encoder.encode(step.value));
        }
      } catch (err) {
        closed = true;
        finish();
        // Says the stream failed, never that the task did.
        controller.enqueue(encoder.encode(encodeFrame({ event: 'stream-error', data: { message: 'stream failed; reconnect to resume' } })));
        controller.close();
        log.error('dashboard stream failed', { error: errorMessage(err) });
      }
    },
    async cancel() {
      closed = true;
      finish();
      await source.return?.(undefined);
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}

export type PushSend = (chunk: string) => void;

/**
 * The feed broadcasts one frame string to every subscriber in turn: encode it once, not once
 * per subscriber (500 dashboards × every frame was 50 MB/s of UTF-8 encoding; bench scenario 4).
 * The bytes are shared read-only between the subscribers' streams.
 */
const lastEncoded: { text: string | null; bytes: Uint8Array } = { text: null, bytes: new Uint8Array(0) };
const sharedEncoder = new TextEncoder();

function encodeShared(text: string): Uint8Array {
  if (lastEncoded.text !== text) {
    lastEncoded.bytes = sharedEncoder.encode(text);
    lastEncoded.text = text;
  }
  return lastEncoded.bytes;
}

/**
 * A Response fed by pushes (the global feed). `attach` is called once with a send function and
 * returns its cleanup. A subscriber that stops reading is cut off rather than buffered forever.
 */
export function sseFromPush(attach: (send: PushSend) => () => void, opts: StreamOptions): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  let detach: (() => void) | undefined;
  let closed = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const uncount = countSubscriber('dashboard');
  const finish = () => {
    if (closed) return;
    closed = true;
    uncount();
    if (timer) clearInterval(timer);
    detach?.();
    try {
      controllerRef?.close();
    } catch {
      // already closed by the consumer
    }
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controllerRef = controller;
      const send: PushSend = (chunk) => {
        if (closed) return;
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) return finish();
        controller.enqueue(encodeShared(chunk));
      };
      send(`retry: ${RETRY_MS}\n\n`);
      timer = setInterval(() => send(SSE_KEEPALIVE), opts.keepaliveMs ?? getSettings().sseKeepaliveMs);
      detach = attach(send);
      if (opts.signal.aborted) finish();
      else opts.signal.addEventListener('abort', finish, { once: true });
    },
    cancel() {
      finish();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
  return new Response(stream, { headers: SSE_HEADERS });
}
