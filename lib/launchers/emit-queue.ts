/**
 * Delivers a turn's progress and artifact chunks to the engine one at a time, in the order the
 * child produced them, so that the outcome is returned only after every chunk is recorded
 * (the whole stream is the result).
 */
export class EmitQueue {
  private tail: Promise<void> = Promise.resolve();
  private firstError?: unknown;

  push(emit: () => Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.firstError !== undefined) return; // Later chunks would leave a gap; stop sending.
      try {
        await emit();
      } catch (error) {
        this.firstError = error;
      }
    });
  }

  /** Waits for every queued emit; returns a failure reason if one of them threw. */
  async drained(): Promise<string | undefined> {
    await this.tail;
    if (this.firstError === undefined) return undefined;
    const message = this.firstError instanceof Error ? this.firstError.message : String(this.firstError);
    return `could not record output: ${message}`;
  }
}
