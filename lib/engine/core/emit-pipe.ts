/**
 * A turn's emits (progress, artifact chunks), pipelined. An emit returns as soon as its write is
 * queued; the write queue commits the queued writes in order, many per transaction (group
 * commit), and only then publishes them, so "seen by a subscriber ⇒ in the database" still
 * holds. The agent waits only while more than MAX_AHEAD of its writes are uncommitted, which
 * bounds the memory a fast agent can pile up. A 2,000-chunk stream thus costs a handful of
 * commits instead of 2,000 (bench/ scenario 3).
 *
 * A write that fails fails the turn: the next emit throws it, and so does drain(), which the
 * turn awaits before its end is recorded.
 */
const MAX_AHEAD = 256;

export class EmitPipe {
  private uncommitted = 0;
  private last: Promise<unknown> = Promise.resolve();
  private failure: { error: unknown } | null = null;

  async push(write: () => Promise<unknown>): Promise<void> {
    this.throwIfFailed();
    const committed = write();
    this.uncommitted++;
    this.last = committed.then(
      () => this.uncommitted--,
      (error) => {
        this.uncommitted--;
        this.failure ??= { error };
      },
    );
    if (this.uncommitted > MAX_AHEAD) await this.last; // writes commit in order: all before it too
    this.throwIfFailed();
  }

  /** Resolves once every pushed write has committed; throws the first failure. */
  async drain(): Promise<void> {
    await this.last;
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
