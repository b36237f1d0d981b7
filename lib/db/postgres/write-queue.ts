/**
 * Group commit for the PostgreSQL task writer: the writes queued while the previous batch was in
 * flight go together in ONE transaction on the writer's own connection, so many concurrent
 * changes share a commit (and its fsync). A promise resolves only after the transaction holding
 * its write has committed ("published ⇒ durable", as sqlite/write-queue.ts does for SQLite).
 *
 * Pipelined (the connection is opened with pg's `pipeline` mode): BEGIN and every write's
 * statement go out in one socket write, without waiting for each answer, and the statements the
 * batch causes (its outbox rows, its NOTIFY) go out with COMMIT in a second one, so a batch costs
 * two round trips however many writes it holds, instead of one per write. Each round trip is a
 * wake-up of this process and of PostgreSQL's backend: on a busy machine each costs milliseconds,
 * and every change waits for all of them before anyone (here or on another instance) sees it. Each write's first statement is sent at once; a write whose keys (its task,
 * its context) are those of an earlier write of the batch is sent only once that one settled,
 * so a task's writes still run in queue order and see each other's results (seq, cache).
 *
 * No savepoints: each write is one or two statements, and a SAVEPOINT/RELEASE pair per write
 * would add two statements to each. A write whose statement fails instead rolls the batch back
 * (the statements behind it fail as "transaction aborted"), and the batch's writes are then run
 * again one transaction each, so only the failing write rejects (failures are rare: a duplicate
 * task id). A connection lost before COMMIT (the server restarting, a failover) rolled the batch
 * back, so the batch is run again after a short backoff, for up to RETRY_FOR_MS, with later
 * writes waiting behind it: a restart of PostgreSQL delays writes instead of failing them. A
 * failed COMMIT rejects the whole batch: whether it committed is unknown, so running it again
 * could write twice.
 *
 * Bounded work per event-loop turn (decision 430): a batch holds up to 1,000 writes (a detach
 * burst fills it), and both its ends ran in one turn each: building and sending every write's
 * statement, and settling every write's promise, whose continuations (the sends' next steps,
 * their answers) then ran back to back before the loop read another socket (the health
 * probe's). Its statements go out WRITES_PER_TURN at a time, one slice a turn (PostgreSQL runs
 * the first while the next are built), and its writes are settled through a slice queue,
 * a slice of 32 a turn (turn-slices.ts), in queue order across batches, while the next batch runs.
 */
import type pg from 'pg';
import { countQueries } from '../query-counter';
import { corked } from './pool';
import { sleep } from '../../util/abortable';
import { createSliceQueue, nextTurn, type SliceQueue } from '../../util/turn-slices';

const MAX_BATCH = 1_000;
/** Writes whose statements are built and sent in one turn (a few milliseconds of work). */
export const WRITES_PER_TURN = 64;

const RETRY_FOR_MS = 30_000;
const MAX_BACKOFF_MS = 2_000;

export type PgWrite<T> = (client: pg.PoolClient) => Promise<T>;

interface QueuedWrite {
  run: PgWrite<unknown>;
  /** Writes of one batch that share a key run one after the other, in queue order. */
  keys: readonly string[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A statement of a write failed; the transaction rolled back cleanly (the batch may be retried). */
class WriteFailed extends Error {
  constructor(readonly cause: unknown) {
    super('write failed');
  }
}

/** The connection failed before COMMIT was sent: nothing of the batch committed. */
class ConnectionLost extends Error {
  constructor(readonly cause: unknown) {
    super('connection lost');
  }
}

const causeOf = (error: unknown) => (error instanceof WriteFailed || error instanceof ConnectionLost ? error.cause : error);

export interface PgWriteQueueHooks {
  /**
   * Statements the batch's results cause (outbox rows, one NOTIFY for the batch), sent with
   * COMMIT in the same socket write: if one fails, the transaction is aborted and COMMIT rolls
   * the whole batch back.
   */
  withCommit?: (values: unknown[]) => pg.QueryConfig[];
  /** After a rollback: in-process caches may hold rows the database does not. */
  onRollback?: () => void;
}

export class PgWriteQueue {
  private queue: QueuedWrite[] = [];
  private flushing = false;
  /** Settles the writes' promises a slice a turn, in the order their batches ended. */
  private readonly settled: SliceQueue = createSliceQueue();

  constructor(
    private readonly pool: pg.Pool,
    private readonly ready: Promise<unknown>,
    private readonly hooks: PgWriteQueueHooks = {},
  ) {}

  /** `keys`: what the write touches that an earlier write of its batch may have changed (its task id, its context). */
  enqueue<T>(run: PgWrite<T>, keys: readonly string[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, keys, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      await this.ready;
    } catch (error) {
      for (const write of this.queue.splice(0)) write.reject(error);
    }
    while (this.queue.length) await this.runBatch(this.queue.splice(0, MAX_BATCH));
    this.flushing = false;
  }

  private async runBatch(batch: QueuedWrite[]): Promise<void> {
    countQueries('writes', batch.length);
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    for (let backoff = 100; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
      try {
        countQueries('commits');
        const values = await this.transaction(batch);
        batch.forEach((w, i) => this.settle(() => w.resolve(values[i])));
        return;
      } catch (error) {
        this.hooks.onRollback?.();
        if (error instanceof ConnectionLost && Date.now() < giveUpAt) {
          await sleep(backoff);
          continue;
        }
        if (!(error instanceof WriteFailed) || batch.length === 1) {
          for (const w of batch) this.settle(() => w.reject(causeOf(error)));
          return;
        }
        break;
      }
    }
    for (const w of batch) {
      try {
        countQueries('commits');
        const [value] = await this.transaction([w]);
        this.settle(() => w.resolve(value));
      } catch (error) {
        this.hooks.onRollback?.();
        this.settle(() => w.reject(causeOf(error)));
      }
    }
  }

  /** Settles a write in a later slice: in order with every write settled before it. */
  private settle(fn: () => void): void {
    this.settled.run(fn);
  }

  private async transaction(writes: QueuedWrite[]): Promise<unknown[]> {
    const client = await this.pool.connect().catch((e: unknown) => {
      throw new ConnectionLost(e);
    });
    let broken: Error | undefined;
    try {
      const [begin, ...pending] = await startWrites(client, writes, () => client.query('BEGIN'));
      const settled = await Promise.allSettled([begin, ...pending]);
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      const values = settled.slice(1).map((s) => (s.status === 'fulfilled' ? s.value : undefined));
      let caused: pg.QueryConfig[];
      try {
        if (failed) throw failed.reason;
        caused = this.hooks.withCommit?.(values) ?? [];
      } catch (error) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw broken ? new ConnectionLost(error) : new WriteFailed(error);
      }
      const ends = await Promise.allSettled(corked(client, () => [...caused.map((q) => client.query(q)), client.query('COMMIT')]));
      const commit = ends[ends.length - 1];
      if (commit.status === 'rejected') {
        broken = commit.reason as Error;
        throw commit.reason;
      }
      // An aborted transaction "commits" as a rollback: nothing of the batch is stored.
      if (commit.value.command === 'ROLLBACK') {
        const cause = ends.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        throw new WriteFailed(cause?.reason ?? new Error('the transaction was aborted'));
      }
      return values;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Sends each write's first statement, WRITES_PER_TURN a turn (each slice in one socket write),
 * except behind an earlier write of the batch with a shared key. Resolves once all are sent.
 */
async function startWrites(client: pg.PoolClient, writes: QueuedWrite[], begin: () => Promise<unknown>): Promise<Promise<unknown>[]> {
  const lastByKey = new Map<string, Promise<unknown>>();
  const start = (write: QueuedWrite) => {
    const before = write.keys.flatMap((key) => lastByKey.get(key) ?? []);
    const started = before.length ? Promise.allSettled(before).then(() => write.run(client)) : write.run(client);
    for (const key of write.keys) lastByKey.set(key, started);
    return started;
  };
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < writes.length; i += WRITES_PER_TURN) {
    if (i > 0) await nextTurn();
    // BEGIN goes out with the first slice.
    const slice = corked(client, () => [...(i === 0 ? [begin()] : []), ...writes.slice(i, i + WRITES_PER_TURN).map(start)]);
    // Awaited all together once every slice is sent: until then a rejection is not unhandled.
    for (const p of slice) p.catch(() => {});
    sent.push(...slice);
  }
  return sent;
}
