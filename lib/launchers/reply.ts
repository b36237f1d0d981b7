/**
 * Turns a finished child's stdout into a reply (and, for resumable agents, a session id).
 * Every rejection names what was wrong, since it becomes the task's failure reason.
 */
import type { OutputSpec } from './spec';

/** `inputRequired`: the agent asked a question (output.inputRequiredField / inputRequiredMarker); `text` is it. */
export type ExtractedReply = { ok: true; text: string; sessionId?: string; inputRequired?: boolean } | { ok: false; reason: string };

/** Session ids are substituted into argv: keep them short and free of NUL and line breaks. */
const MAX_SESSION_ID_CHARS = 4096;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function extractReply(stdout: Buffer, output: OutputSpec, maxReplyBytes: number): ExtractedReply {
  let text: string;
  try {
    text = utf8.decode(stdout);
  } catch {
    return { ok: false, reason: 'reply is not valid UTF-8' };
  }
  const extracted = output.format === 'json' ? fromJson(text, output) : fromText(text, output);
  if (!extracted.ok) return extracted;
  return checkReply(extracted, maxReplyBytes);
}

function checkReply(reply: { text: string; sessionId?: string; inputRequired?: boolean }, maxReplyBytes: number): ExtractedReply {
  const text = reply.text.trim();
  if (!text) return { ok: false, reason: reply.inputRequired ? 'input required, but the reply has no question' : 'empty reply' };
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxReplyBytes) return { ok: false, reason: `output limit exceeded: reply is ${bytes} bytes (limit ${maxReplyBytes})` };
  return { ok: true, text, sessionId: cleanSessionId(reply.sessionId), ...(reply.inputRequired ? { inputRequired: true } : {}) };
}

function fromText(text: string, output: Extract<OutputSpec, { format: 'text' }>): ExtractedReply {
  const asked = withoutMarkerLine(text, output.inputRequiredMarker);
  const inputRequired = asked !== text ? { inputRequired: true } : {};
  if (output.sessionIdRegex === undefined) return { ok: true, text: asked, ...inputRequired };
  const match = new RegExp(output.sessionIdRegex, 'm').exec(asked);
  if (!match) return { ok: true, text: asked, ...inputRequired };
  const reply = output.stripSessionMatch ? asked.slice(0, match.index) + asked.slice(match.index + match[0].length) : asked;
  return { ok: true, text: reply, sessionId: match[1], ...inputRequired };
}

/** The text without its lines that are exactly the marker (surrounding blanks aside); unchanged if none is. */
function withoutMarkerLine(text: string, marker: string | undefined): string {
  if (marker === undefined) return text;
  const lines = text.split('\n');
  const kept = lines.filter((line) => line.trim() !== marker);
  return kept.length === lines.length ? text : kept.join('\n');
}

function fromJson(text: string, output: Extract<OutputSpec, { format: 'json' }>): ExtractedReply {
  const { replyField, sessionIdField, inputRequiredField } = output;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `stdout is not valid JSON: ${(error as Error).message.slice(0, 200)}` };
  }
  const reply = readDotPath(doc, replyField);
  if (reply === undefined) return { ok: false, reason: `reply field "${replyField}" is missing from the JSON output` };
  if (typeof reply !== 'string') return { ok: false, reason: `reply field "${replyField}" is not a string (got ${kindOf(reply)})` };
  const session = sessionIdField === undefined ? undefined : readDotPath(doc, sessionIdField);
  const sessionId = typeof session === 'string' || typeof session === 'number' ? String(session) : undefined;
  const asked = inputRequiredField === undefined ? undefined : readDotPath(doc, inputRequiredField);
  const inputRequired = asked === true || (typeof asked === 'string' && asked.trim() !== '');
  return { ok: true, text: reply, sessionId, ...(inputRequired ? { inputRequired } : {}) };
}

/** Follows `a.b.0.c` through objects and arrays; own properties only, so `__proto__` finds nothing. */
export function readDotPath(doc: unknown, path: string): unknown {
  let node: unknown = doc;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function cleanSessionId(raw: string | undefined): string | undefined {
  const id = raw?.trim();
  if (!id || id.length > MAX_SESSION_ID_CHARS || /[\0\r\n]/.test(id)) return undefined;
  return id;
}
