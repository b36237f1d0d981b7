/**
 * Group commit for the task writer. Every write is queued and the queue is flushed once per
 * event-loop turn (setImmediate) in ONE SQLite transaction; each write keeps its own savepoint,
 * so a write that throws is rolled back alone and only its promise rejects. A promise resolves
 * only after the transaction holding its write has committed, so "published ⇒ durable" holds.
 *
 * Why: on SQLite a commit costs far more than the rows in it (≈300 µs on this machine's ext4,
 * dominated by rewriting the touched index pages into the WAL). Fifty concurrent sends, or a
 * stream's chunks, then share one commit instead of paying one each (bench/: scenarios 1, 3).
 */
import { countQueries } from '../query-counter';
import { metrics } from '../../metrics/metrics';

const MAX_BATCH = 1_000;

/**
 * A flush stops taking writes once its transaction has run this long; the rest wait for the next
 * turn. The writes run synchronously: a burst of 1,000 task inserts (10,000 detaching sends)
 * held the event loop for one long transaction, and every other request (GET /api/health) with
 * it. Echo's 50 concurrent sends take about 2 ms, so its commits are not split.
 */
export const FLUSH_BUDGET_MS = 8;

interface QueuedWrite {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class WriteQueue {
  private queue: QueuedWrite[] = [];
  private scheduled = false;

  /** `transaction(fn)` must run fn inside one transaction and commit it, or throw. */
  constructor(private readonly transaction: (fn: () => void) => void) {}

  /** Runs `write` in the next batch; resolves with its result once that batch has committed. */
  enqueue<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const taken = this.queue.splice(0, MAX_BATCH);
    const outcomes: { ok: boolean; value: unknown }[] = [];
    const started = performance.now();
    let failure: { error: unknown } | null = null;
    try {
      this.transaction(() => {
        for (const write of taken) {
          if (outcomes.length > 0 && performance.now() - started >= FLUSH_BUDGET_MS) break;
          try {
            outcomes.push({ ok: true, value: write.run() });
          } catch (error) {
            outcomes.push({ ok: false, value: error });
          }
        }
      });
    } catch (error) {
      failure = { error };
    }
    // Writes the budget left out never ran: they go first in the next batch, in their order. A
    // transaction that failed before its first write (BEGIN) rejects every write it took.
    const ran = failure && outcomes.length === 0 ? taken.length : outcomes.length;
    const batch = taken.slice(0, ran);
    this.queue.unshift(...taken.slice(ran));
    if (this.queue.length) setImmediate(() => this.flush());
    else this.scheduled = false;
    countQueries('writes', batch.length);
    countQueries('commits');
    if (failure) {
      for (const write of batch) write.reject(failure.error);
      return;
    }
    observeCommit(performance.now() - started, batch.length);
    batch.forEach((write, i) => (outcomes[i].ok ? write.resolve(outcomes[i].value) : write.reject(outcomes[i].value)));
  }
}

function observeCommit(ms: number, writes: number): void {
  const m = metrics();
  m.commitDuration.observe(ms / 1000);
  m.commitWrites.inc(writes);
}
