/**
 * Sends what an outbox holds (push deliveries here, operator notifications in lib/notify): runs
 * the due items, then sets one timer for the next due time. It never polls: a committed change
 * (or a takeover) kicks it, and the timer covers retries. One pass at a time per process.
 */
import { errorMessage, log } from '../log';
import { settledWithin, sleep } from '../util/abortable';
import { backoffDelay } from '../util/backoff';
import type { MaybeAsync } from '../util/maybe-async';

export interface OutboxSource<T> {
  /** What is due now (on PostgreSQL: what this instance may send). */
  due(): MaybeAsync<T[]>;
  /** When the next item is due, or null when none is waiting. */
  nextDue(): MaybeAsync<Date | null>;
  key(item: T): string;
  /** One attempt; records its outcome itself. */
  attempt(item: T): Promise<void>;
}

/**
 * The longest a timer is set for (setTimeout's bound, ~24.8 days); a later due time is looked at
 * again then. Nothing else needs a periodic look: commits, takeovers and a stopping instance's
 * announcement kick the worker, so a retry due in an hour costs no query until it is due.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After a pass failed (the database is unreachable): look again after this, not at once. */
const FAILED_PASS_RETRY_MS = 1_000;

export class OutboxWorker<T> {
  private running = false;
  private again = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(
    private readonly name: string,
    private readonly source: OutboxSource<T>,
  ) {}

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    let failed = false;
    void this.pass()
      .catch((err) => {
        failed = true;
        log.error(`${this.name} pass failed`, { error: errorMessage(err) });
      })
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.kick();
        } else if (failed) this.setTimer(FAILED_PASS_RETRY_MS);
        else void this.schedule().catch((err) => log.error(`${this.name} not scheduled`, { error: errorMessage(err) }));
      });
  }

  /** Attempts in flight now. */
  get inFlight(): number {
    return this.inflight.size;
  }

  /** Starts no more attempts; resolves once those in flight have ended, or after `maxWaitMs`. */
  async stop(maxWaitMs = 15_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await settledWithin(Promise.allSettled([...this.inflight.values()]), maxWaitMs);
  }

  private async pass(): Promise<void> {
    while (!this.stopped) {
      const due = (await this.source.due()).filter((item) => !this.inflight.has(this.source.key(item)));
      if (!due.length) return;
      await Promise.all(due.map((item) => this.run(item)));
    }
  }

  private run(item: T): Promise<void> {
    const key = this.source.key(item);
    const running = this.source.attempt(item).finally(() => this.inflight.delete(key));
    this.inflight.set(key, running);
    return running;
  }

  private async schedule(): Promise<void> {
    const next = await this.source.nextDue();
    if (this.running) return; // kicked while reading: that pass schedules again
    if (next) this.setTimer(next.getTime() - Date.now());
    else if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private setTimer(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.min(MAX_TIMER_MS, Math.max(0, ms)));
    this.timer.unref?.();
  }
}

/** How long an attempt's outcome is retried while the database is unreachable (a PostgreSQL restart). */
const RECORD_RETRY_FOR_MS = 60_000;
/** From 0.2 s, doubling, at most 5 s: a database that comes back is used again soon. */
const RECORD_RETRY_BACKOFF = { initialMs: 200, maxMs: 5_000 };

/**
 * Records an attempt's outcome, retrying while the database is unreachable: a POST that went out
 * must not be sent again only because its outcome could not be written. The item stays in flight
 * here meanwhile, so this process does not attempt it again; after `forMs` the error passes on
 * and the item is left as it was, to be sent again later (at least once).
 */
export async function recordOutcome(record: () => unknown, what: string, forMs = RECORD_RETRY_FOR_MS): Promise<void> {
  const giveUpAt = Date.now() + forMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await record();
      return;
    } catch (err) {
      if (Date.now() > giveUpAt) throw err;
      const inMs = backoffDelay(RECORD_RETRY_BACKOFF, attempt);
      log.warn(`${what}: its outcome could not be recorded; retrying`, { error: errorMessage(err), inMs });
      await sleep(inMs);
    }
  }
}
