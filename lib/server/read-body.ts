/**
 * The one request-body reader: a byte limit (never buffering more), a nesting limit, then JSON.
 * The A2A bindings and the /api routes each say the outcome in their own error shape.
 */
import { jsonDepth, MAX_JSON_DEPTH } from './json-depth';

/** Over the byte limit (SWITCHBOARD_MAX_BODY_BYTES, or the caller's). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes (SWITCHBOARD_MAX_BODY_BYTES)`);
  }
}

export async function readBodyText(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > limit) throw new BodyTooLargeError(limit);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A body read as JSON, or why not: over the byte limit, empty, nested too deep, not JSON. */
export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; problem: 'too-large'; message: string }
  | { ok: false; problem: 'empty' | 'too-deep' | 'not-json' };

export async function readRequestJson(req: Request, limit: number): Promise<JsonBody> {
  let text: string;
  try {
    text = await readBodyText(req, limit);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return { ok: false, problem: 'too-large', message: err.message };
    throw err;
  }
  if (text.trim() === '') return { ok: false, problem: 'empty' };
  if (jsonDepth(text) > MAX_JSON_DEPTH) return { ok: false, problem: 'too-deep' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: 'not-json' };
  }
}
