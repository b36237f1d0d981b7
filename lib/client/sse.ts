/**
 * Server-Sent Events parsing (WHATWG "event stream interpretation"), enough for A2A streams:
 * `data:` lines (joined with \n), `event:`, `id:`, comments (keepalives) ignored, any line ending.
 * A2A sends one JSON-RPC response per event (a2a-protocol.md §5); errors may come as
 * `event: error`.
 */

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private readonly decoder = new TextDecoder();

  /** Feeds bytes; returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const out: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  /** End of stream: a final event without its blank line is dropped, as the spec says. */
  end(): SseEvent[] {
    return [];
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const hasData = this.data.length > 0;
    const event: SseEvent = { event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) };
    this.data = [];
    this.event = '';
    return hasData ? event : null;
  }
}

/** Parses a byte stream into SSE events. */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}
