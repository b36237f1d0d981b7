/**
 * A turn's emits (progress, artifact chunks), pipelined. An emit returns as soon as its write is
 * queued; the write queue commits the queued writes in order, many per transaction (group
 * commit), and only then publishes them, so "seen by a subscriber ⇒ in the database" still
 * holds. The agent waits only while more than MAX_AHEAD of its events are uncommitted, which
 * bounds the memory a fast agent can pile up. A 2,000-chunk stream thus costs a handful of
 * commits instead of 2,000 (bench/ scenario 3).
 *
 * Artifact chunks emitted one by one in the same event-loop turn (an agent's loop of awaited
 * emits) are coalesced into one write, issued on the next turn or when anything else is pushed,
 * whichever comes first: one output-limit check, one owner charge, one publication and one
 * observer wake-up for the run instead of one each per chunk, which cost more than the chunk's
 * row (docs/benchmarks.md, "Where the time goes, round nine"). Each chunk is still its own event,
 * and order is kept: a progress push issues the chunks before it first.
 *
 * A write that fails fails the turn: the next emit throws it, and so does drain(), which the
 * turn awaits before its end is recorded.
 */
const MAX_AHEAD = 256;

/** Writes a run of chunks (in order, as one change when they fit the output limit). */
export type ChunkWriter<C> = (chunks: C[]) => Promise<unknown>;

export class EmitPipe<C = never> {
  private uncommitted = 0;
  private last: Promise<unknown> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  /** Chunks emitted this turn, not yet handed to the writer. */
  private pending: C[] | null = null;

  constructor(private readonly writeChunks?: ChunkWriter<C>) {}

  async push(write: () => Promise<unknown>, events = 1): Promise<void> {
    this.throwIfFailed();
    this.issuePending();
    this.track(write(), events);
    if (this.uncommitted > MAX_AHEAD) await this.last; // writes commit in order: all before it too
    this.throwIfFailed();
  }

  /** One artifact chunk: joins the chunks emitted in this event-loop turn (needs a ChunkWriter). */
  async pushChunk(chunk: C): Promise<void> {
    this.throwIfFailed();
    if (this.pending) this.pending.push(chunk);
    else {
      const batch = (this.pending = [chunk]);
      setImmediate(() => {
        if (this.pending === batch) this.issuePending();
      });
    }
    if (this.uncommitted + this.pending.length > MAX_AHEAD) {
      this.issuePending();
      await this.last;
    }
    this.throwIfFailed();
  }

  /** Hands the coalesced chunks to the writer now, so whatever is written next comes after them. */
  issuePending(): void {
    const chunks = this.pending;
    if (!chunks) return;
    this.pending = null;
    this.track(this.writeChunks!(chunks), chunks.length);
  }

  /** Resolves once every pushed write has committed; throws the first failure. */
  async drain(): Promise<void> {
    this.issuePending();
    await this.last;
    this.throwIfFailed();
  }

  private track(committed: Promise<unknown>, events: number): void {
    this.uncommitted += events;
    this.last = committed.then(
      () => (this.uncommitted -= events),
      (error) => {
        this.uncommitted -= events;
        this.failure ??= { error };
      },
    );
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
