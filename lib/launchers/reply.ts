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
  const extracted = output.format === 'json' ? fromJson(text, output) : output.format === 'jsonl' ? fromJsonLines(text, output) : fromText(text, output);
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
  return { ok: true, text: reply, sessionId: sessionIn([doc], sessionIdField), ...inputRequiredIn([doc], inputRequiredField) };
}

/**
 * `format: "jsonl"` (event streams such as `codex exec --json`): one JSON document per line. The
 * reply is `replyField` of the last line that has it as a string (and matches `replyWhere`); the
 * session id is the first line's `sessionIdField` that has one.
 */
function fromJsonLines(text: string, output: Extract<OutputSpec, { format: 'jsonl' }>): ExtractedReply {
  const docs: unknown[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    try {
      docs.push(JSON.parse(line));
    } catch (error) {
      return { ok: false, reason: `stdout line ${index + 1} is not valid JSON: ${(error as Error).message.slice(0, 200)}` };
    }
  }
  const where = Object.entries(output.replyWhere ?? {});
  const matching = docs.filter((doc) => typeof readDotPath(doc, output.replyField) === 'string' && where.every(([path, value]) => readDotPath(doc, path) === value));
  const last = matching[matching.length - 1];
  if (last === undefined) return { ok: false, reason: `no line of the JSON-lines output has a string "${output.replyField}"${where.length ? ' where ' + where.map(([p, v]) => `${p} = ${JSON.stringify(v)}`).join(', ') : ''}` };
  return { ok: true, text: readDotPath(last, output.replyField) as string, sessionId: sessionIn(docs, output.sessionIdField), ...inputRequiredIn(docs, output.inputRequiredField) };
}

function sessionIn(docs: unknown[], field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  for (const doc of docs) {
    const value = readDotPath(doc, field);
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}

/** `true` or a non-empty string in the field (in any document) asks for input. */
function inputRequiredIn(docs: unknown[], field: string | undefined): { inputRequired?: true } {
  if (field === undefined) return {};
  const asks = docs.some((doc) => {
    const value = readDotPath(doc, field);
    return value === true || (typeof value === 'string' && value.trim() !== '');
  });
  return asks ? { inputRequired: true } : {};
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

export function cleanSessionId(raw: string | undefined): string | undefined {
  const id = raw?.trim();
  if (!id || id.length > MAX_SESSION_ID_CHARS || /[\0\r\n]/.test(id)) return undefined;
  return id;
}
