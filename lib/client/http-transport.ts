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
        chunks: res as AsyncIterable<Buffer>,
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
