/**
 * A blocking send's answer, held up to the response window without starving the client. Node's
 * fetch (undici, used by every a2a-js client) drops a response whose headers have not arrived
 * within 300 s, and a body that stays silent as long; a window of 300 s or more left those clients
 * without the task id. So an answer not ready within a moment commits to HTTP 200: the headers go
 * out with one space, then a space every SWITCHBOARD_BLOCKING_KEEPALIVE, then the JSON answer.
 * JSON allows leading whitespace (RFC 8259 §2), so every JSON parser reads the body unchanged.
 *
 * Only an operation that can no longer be refused is held (its task exists); an answer that
 * fails after the headers went out is still a well-formed error body of the binding, in the 200
 * already sent (decision 164).
 */
import { getSettings } from '../config/settings';
import { slicedTimeout, type SlicedTimeout } from '../util/turn-slices';

/** How long an answer may take and still go out as a plain response, with its own status. */
const PLAIN_ANSWER_MS = 1_000;

export interface HeldRendering {
  /** The answer's body. */
  body(result: unknown): string;
  /** An error before anything was sent: the binding's own error response (status included). */
  errorResponse(err: unknown): Response;
  /** An error after the headers: the binding's error body, for the 200 already sent. */
  errorBody(err: unknown): string;
}

const HELD_HEADERS = {
  'Content-Type': 'application/json',
  // no-transform: no compression layer may buffer the keep-alive spaces.
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
};

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

export async function heldJsonResponse(result: Promise<unknown>, render: HeldRendering): Promise<Response> {
  const settled: Promise<Settled> = result.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
  const intervalMs = getSettings().blockingKeepaliveMs;
  let hold: SlicedTimeout | undefined;
  // Sliced: the holds of a burst of sends expire together (decision 405).
  const early = await Promise.race([settled, new Promise<null>((resolve) => (hold = slicedTimeout(() => resolve(null), Math.min(PLAIN_ANSWER_MS, intervalMs))))]);
  hold?.clear();
  if (early) return early.ok ? new Response(render.body(early.value), { headers: { 'Content-Type': 'application/json' } }) : render.errorResponse(early.error);

  const encoder = new TextEncoder();
  let keepalive: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      send(' ');
      keepalive = setInterval(() => send(' '), intervalMs);
      void settled.then((outcome) => {
        clearInterval(keepalive);
        try {
          send(outcome.ok ? render.body(outcome.value) : render.errorBody(outcome.error));
          controller.close();
        } catch {
          // the client already went away
        }
      });
    },
    cancel() {
      // The client went away: the request signal already detaches the task.
      clearInterval(keepalive);
    },
  });
  return new Response(stream, { headers: HELD_HEADERS });
}
