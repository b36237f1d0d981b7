/**
 * Outbound HTTP for the A2A client, on node:http/https rather than global fetch: Node's fetch
 * (undici) has built-in headers and body timeouts of 300 s that cannot be turned off without the
 * undici package. A blocking call waiting our client timeout T (330 s by default) would die at
 * 300 s with a transport error: the very trap Switchboard exists to remove. Here
 * the only clocks are the AbortSignals our callers pass, all derived from settings.
 */
import http from 'node:http';
import https from 'node:https';

/** Refuse absurd responses from a peer (a size bound, not a timeout). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Connection errors that prove the request never reached the peer (safe to call "not sent"). */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

export class TransportError extends Error {
  constructor(
    message: string,
    /** HTTP status when the peer answered with one. */
    readonly status?: number,
    /** True when the request certainly did not reach the peer (connection refused, DNS...). */
    readonly notSent = false,
  ) {
    super(message);
  }
}

/** Our own clock ran out (T, or an idle stream): never a failure of the task by itself. */
export class ClientTimeoutError extends Error {
  constructor(readonly timeoutMs: number, what: string) {
    super(`${what}: no answer within ${timeoutMs / 1000} s (client timeout)`);
  }
}

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  contentType: string;
  header(name: string): string | undefined;
  /** The body as it arrives (for SSE). */
  chunks: AsyncIterable<Buffer>;
  /** The whole body as text, bounded. */
  text(): Promise<string>;
}

function networkError(err: unknown): TransportError {
  const e = err as NodeJS.ErrnoException;
  return new TransportError(`${e.code ? `${e.code}: ` : ''}${e.message}`, undefined, e.code !== undefined && NOT_SENT_CODES.has(e.code));
}

async function readText(res: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      res.destroy();
      throw new TransportError(`response larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** How long, and how much, the rest of a body a reader left early may take to arrive (bodyChunks). */
const DRAIN_MS = 2_000;
const DRAIN_BYTES = 256 * 1024;

/**
 * The body as it arrives. A reader that stops early (a stream whose final event was read before
 * the peer closed it) lets the rest drain, within DRAIN_MS and DRAIN_BYTES, instead of
 * destroying the response: its socket then goes back to the keep-alive pool, and the next call
 * to the peer (the confirming GetTask, the next turn) needs no new connection (decision 402). A
 * rest that is longer or slower is cut as before. Errors and aborts destroy the response as always.
 */
function bodyChunks(res: http.IncomingMessage): AsyncIterable<Buffer> {
  return {
    [Symbol.asyncIterator]() {
      const inner = res.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
      return {
        next: () => inner.next(),
        async return(value?: unknown) {
          await inner.return?.();
          drainRest(res);
          return { done: true, value: value as Buffer };
        },
      };
    },
  };
}

function drainRest(res: http.IncomingMessage): void {
  if (res.destroyed) return;
  let bytes = 0;
  const cut = () => res.destroy();
  const timer = setTimeout(cut, DRAIN_MS);
  timer.unref();
  res.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DRAIN_BYTES) cut();
  });
  res.once('close', () => clearTimeout(timer));
  res.resume();
}

/** Resolves when the response headers arrive; errors are TransportError (or the abort reason). */
export function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      reject(new TransportError(`invalid URL: ${req.url}`, undefined, true));
      return;
    }
    const lib = url.protocol === 'https:' ? https : http;
    const headers = { ...req.headers, ...(req.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(req.body)) } : {}) };
    const request = lib.request(url, { method: req.method, headers, signal: req.signal }, (res) => {
      resolve({
        status: res.statusCode ?? 0,
        contentType: String(res.headers['content-type'] ?? ''),
        header: (name) => {
          const v = res.headers[name.toLowerCase()];
          return Array.isArray(v) ? v.join(', ') : v;
        },
        chunks: bodyChunks(res),
        text: () => readText(res),
      });
    });
    request.on('error', (err) => reject(req.signal.aborted ? req.signal.reason : networkError(err)));
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}

/** Maps an error raised while reading a body to our error kinds. */
export function bodyError(err: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (err instanceof TransportError || err instanceof ClientTimeoutError) return err;
  return networkError(err);
}
