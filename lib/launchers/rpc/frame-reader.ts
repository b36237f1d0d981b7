/**
 * Splits a worker's stdout into frames (LF-terminated lines) without ever holding more than
 * one frame's worth of bytes: a line that grows past the limit is an error before it ends.
 */
export type ReadResult = { lines: string[]; error?: string };

const LF = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class FrameReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxFrameBytes: number) {}

  /** Complete lines in this chunk (blank lines skipped); `error` ends the stream. */
  push(chunk: Buffer): ReadResult {
    const lines: string[] = [];
    let start = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, lf);
      start = lf + 1;
      if (this.pendingBytes + piece.length > this.maxFrameBytes) return { lines, error: this.tooLarge() };
      const line = this.takeLine(piece);
      if (line === null) return { lines, error: 'frame is not valid UTF-8' };
      if (line.trim()) lines.push(line);
    }
    const rest = chunk.subarray(start);
    if (this.pendingBytes + rest.length > this.maxFrameBytes) return { lines, error: this.tooLarge() };
    if (rest.length) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return { lines };
  }

  /** Bytes of an unterminated last line (a frame cut off when the worker exited). */
  get partialBytes(): number {
    return this.pendingBytes;
  }

  private takeLine(piece: Buffer): string | null {
    const bytes = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
    this.pending = [];
    this.pendingBytes = 0;
    try {
      return utf8.decode(bytes).replace(/\r$/, '');
    } catch {
      return null;
    }
  }

  private tooLarge(): string {
    return `frame exceeds ${this.maxFrameBytes} bytes`;
  }
}
