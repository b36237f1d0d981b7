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
 */
import type pg from 'pg';
import { countQueries } from '../query-counter';
import { corked } from './pool';
import { sleep } from '../../util/abortable';

const MAX_BATCH = 1_000;
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
        batch.forEach((w, i) => w.resolve(values[i]));
        return;
      } catch (error) {
        this.hooks.onRollback?.();
        if (error instanceof ConnectionLost && Date.now() < giveUpAt) {
          await sleep(backoff);
          continue;
        }
        if (!(error instanceof WriteFailed) || batch.length === 1) {
          for (const w of batch) w.reject(causeOf(error));
          return;
        }
        break;
      }
    }
    for (const w of batch) {
      try {
        countQueries('commits');
        w.resolve((await this.transaction([w]))[0]);
      } catch (error) {
        this.hooks.onRollback?.();
        w.reject(causeOf(error));
      }
    }
  }

  private async transaction(writes: QueuedWrite[]): Promise<unknown[]> {
    const client = await this.pool.connect().catch((e: unknown) => {
      throw new ConnectionLost(e);
    });
    let broken: Error | undefined;
    try {
      const [begin, ...pending] = corked(client, () => [client.query('BEGIN'), ...startWrites(client, writes)]);
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

/** Sends each write's first statement now, except behind an earlier write of the batch with a shared key. */
function startWrites(client: pg.PoolClient, writes: QueuedWrite[]): Promise<unknown>[] {
  const lastByKey = new Map<string, Promise<unknown>>();
  return writes.map((write) => {
    const before = write.keys.flatMap((key) => lastByKey.get(key) ?? []);
    const started = before.length ? Promise.allSettled(before).then(() => write.run(client)) : write.run(client);
    for (const key of write.keys) lastByKey.set(key, started);
    return started;
  });
}
