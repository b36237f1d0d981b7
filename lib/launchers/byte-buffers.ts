/**
 * Memory-bounded capture of child output. Whatever a child prints, we hold at most `limit`
 * bytes of a captured stream and `limit` bytes of a tail; the rest is counted, then dropped.
 */

/** Keeps the first `limit` bytes; past that it only records that the limit was exceeded. */
export class BoundedCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private seen = 0;

  constructor(readonly limit: number) {}

  /** Returns false once the stream has gone over the limit. */
  push(chunk: Buffer): boolean {
    this.seen += chunk.length;
    if (this.seen > this.limit) return false;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    return true;
  }

  get overflowed(): boolean {
    return this.seen > this.limit;
  }

  get bytesSeen(): number {
    return this.seen;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}

/** Keeps roughly the last `limit` bytes (for error messages), counting everything it saw. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private kept = 0;
  private seen = 0;

  constructor(readonly limit: number) {}

  push(chunk: Buffer): void {
    this.seen += chunk.length;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.chunks.length > 1 && this.kept - this.chunks[0].length >= this.limit) {
      this.kept -= this.chunks.shift()!.length;
    }
    if (this.kept > 2 * this.limit) this.compact();
  }

  get bytesSeen(): number {
    return this.seen;
  }

  /** The tail as text: invalid UTF-8 becomes U+FFFD, since it only serves a human reading an error. */
  text(): string {
    const all = Buffer.concat(this.chunks, this.kept);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }

  /** One huge chunk would otherwise be kept whole; cut it down to the limit. */
  private compact(): void {
    const all = Buffer.concat(this.chunks, this.kept);
    const tail = Buffer.from(all.subarray(all.length - this.limit));
    this.chunks = [tail];
    this.kept = tail.length;
  }
}
