/**
 * Server-Sent Events parsing (WHATWG "event stream interpretation"), enough for A2A streams:
 * `data:` lines (joined with \n), `event:`, `id:`, comments (keepalives) ignored, any line ending.
 * A2A sends one JSON-RPC response per event (the A2A specification); errors may come as
 * `event: error`.
 *
 * A peer is not trusted to end its lines: each chunk is scanned once, from where
 * the previous one stopped (linear in the stream), and an event (its unfinished line included)
 * larger than SSE_MAX_EVENT_CHARS stops the parse with SseLimitError instead of growing.
 */
import { TransportError } from './http-transport';

/** The largest event accepted, in characters of decoded text (bytes, for ASCII JSON). */
export const SSE_MAX_EVENT_CHARS = 16 * 1024 * 1024;

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** The peer sent an event (or a line) over the bound: the stream is abandoned. */
export class SseLimitError extends TransportError {
  constructor(limit: number) {
    super(`event stream: an event exceeds ${limit} characters (limit); the stream was closed`);
  }
}

const LINE_BREAK = /[\r\n]/g;

export class SseParser {
  /** Pieces of the line not yet ended (joined once, when it ends). */
  private pending: string[] = [];
  private pendingChars = 0;
  /** The previous chunk ended with \r: a \n opening this one belongs to it. */
  private afterCr = false;
  private data: string[] = [];
  private dataChars = 0;
  private event = '';
  private id: string | undefined;
  private readonly decoder = new TextDecoder();

  constructor(private readonly maxEventChars = SSE_MAX_EVENT_CHARS) {}

  /** Feeds bytes; returns the events completed by them. Throws SseLimitError past the bound. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const out: SseEvent[] = [];
    let start = this.afterCr && text.startsWith('\n') ? 1 : 0;
    this.afterCr = false;
    LINE_BREAK.lastIndex = start;
    for (let match = LINE_BREAK.exec(text); match; match = LINE_BREAK.exec(text)) {
      const end = match.index;
      this.keep(text.slice(start, end));
      start = end + 1;
      if (text[end] === '\r') {
        if (text[start] === '\n') start++;
        else if (start === text.length) this.afterCr = true;
      }
      LINE_BREAK.lastIndex = start;
      const event = this.line(this.takeLine());
      if (event) out.push(event);
    }
    this.keep(text.slice(start));
    return out;
  }

  /** End of stream: a final event without its blank line is dropped, as the spec says. */
  end(): SseEvent[] {
    return [];
  }

  private keep(piece: string): void {
    if (!piece) return;
    if (this.pendingChars + piece.length + this.dataChars > this.maxEventChars) throw new SseLimitError(this.maxEventChars);
    this.pending.push(piece);
    this.pendingChars += piece.length;
  }

  private takeLine(): string {
    const line = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    return line;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataChars += value.length + 1;
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const hasData = this.data.length > 0;
    const event: SseEvent = { event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) };
    this.data = [];
    this.dataChars = 0;
    this.event = '';
    return hasData ? event : null;
  }
}

/**
 * Parses a byte stream into SSE events, yielding the events each read completed together: a
 * relayed stream's reads hold dozens of small events, and one step per read instead of one per
 * event spares every layer above its promises (docs/decisions.md 413).
 */
export async function* parseSseBatches(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent[]> {
  const parser = new SseParser();
  for await (const chunk of chunks) {
    const events = parser.push(chunk);
    if (events.length) yield events;
  }
  const rest = parser.end();
  if (rest.length) yield rest;
}
