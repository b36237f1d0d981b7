/**
 * Leases between instances on one PostgreSQL (the cluster's own tables, created here, outside
 * the Prisma model like `_switchboard_migrations`). Each instance holds a row that it renews
 * while it lives; each running inbound turn has a lease row naming the instance running it.
 * Such work is orphaned when its lease names an instance without a live row (dead: its row expired
 * and was removed), or when it has no lease at all and has not changed for a whole lease.
 *
 * Turn leases are written in batches every FLUSH_MS: a turn that starts and ends within one
 * batch (an echo) costs no query at all; a long turn costs one insert and one delete.
 *
 * Outbox rows (push deliveries and operator notifications, OWNED_OUTBOXES) carry their owner in
 * their own row instead: the same lease (the owner's instance row), taken over by one statement
 * for every outbox once that row is gone.
 */
import type pg from 'pg';
import { named } from './pool';
import { withMigrationLock } from './migrate';
import { errorMessage, log } from '../../log';

const FLUSH_MS = 20;

const TABLES = `
CREATE TABLE IF NOT EXISTS "_switchboard_instances" (
  "id" TEXT PRIMARY KEY, "startedAt" TIMESTAMPTZ NOT NULL DEFAULT now(), "expiresAt" TIMESTAMPTZ NOT NULL);
CREATE TABLE IF NOT EXISTS "_switchboard_turn_leases" (
  "taskId" TEXT PRIMARY KEY, "instance" TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS "_switchboard_turn_leases_instance_idx" ON "_switchboard_turn_leases" ("instance");`;

/**
 * The outboxes whose rows name the instance that sends them (`owner`, `state`, `attemptStartedAt`
 * columns; change-outbox.ts writes them), with their keys: push deliveries and operator notifications.
 */
const OUTBOX_KEYS = { PushDelivery: ['taskId', 'configId', 'seq'], NotificationDelivery: ['id'] } as const;
export type OwnedOutbox = keyof typeof OUTBOX_KEYS;
export const OWNED_OUTBOXES = Object.keys(OUTBOX_KEYS) as OwnedOutbox[];
export type OutboxCounts = Record<OwnedOutbox, number>;

/**
 * Per outbox (each its own CTE, in one statement): the pending rows whose owner has no live row,
 * then a compare-and-set on the owner read. A concurrent survivor's UPDATE re-checks the row after
 * the first one's commit, sees another owner than it read, and leaves it, so one survivor wins
 * each row. (A NOT EXISTS re-checked alone would not do: its subquery still sees the old owner.)
 */
const takeOverOutbox = (table: OwnedOutbox, cte: string) => {
  const keys = OUTBOX_KEYS[table].map((k) => `"${k}"`);
  return `${cte} AS (UPDATE "${table}" d SET "owner" = $1 FROM (
      SELECT ${keys.join(', ')}, "owner" FROM "${table}" o WHERE o."state" = 'pending' AND o."owner" IS DISTINCT FROM $1
        AND NOT EXISTS (SELECT 1 FROM "_switchboard_instances" i WHERE i."id" = o."owner")) gone
    WHERE ${keys.map((k) => `d.${k} = gone.${k}`).join(' AND ')} AND d."owner" IS NOT DISTINCT FROM gone."owner" AND d."state" = 'pending' RETURNING 1)`;
};

const TAKE_OVER_OUTBOXES = `WITH ${OWNED_OUTBOXES.map((table, i) => takeOverOutbox(table, `t${i}`)).join(',\n  ')}
  SELECT ${OWNED_OUTBOXES.map((table, i) => `(SELECT count(*)::int FROM t${i}) AS "${table}"`).join(', ')}`;

const HELD_OUTBOX_ROWS = OWNED_OUTBOXES.map(
  (table) => `SELECT '${table}' AS "outbox", count(*)::int AS "pending", count("attemptStartedAt")::int AS "inFlight" FROM "${table}" WHERE "state" = 'pending' AND "owner" = $1`,
).join('\nUNION ALL ');

export interface OrphanedTurn {
  id: string;
  contextId: string;
  direction: 'inbound' | 'outbound';
  /** The instance whose lease it had (null: none). */
  instance: string | null;
}

export class PgLeases {
  private readonly toLease = new Set<string>();
  private readonly toRelease = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** Tasks this instance holds a lease on (written or about to be). */
  private readonly heldIds = new Set<string>();

  constructor(
    private readonly pool: pg.Pool,
    readonly instance: string,
    readonly leaseMs: number,
  ) {}

  /** Under the migration lock: instances starting at once on a fresh database would race on the DDL. */
  async createTables(): Promise<void> {
    await withMigrationLock(this.pool, (client) => client.query(TABLES));
  }

  /** Inserts or extends this instance's row. */
  async renew(): Promise<void> {
    await this.pool.query(
      named(
        `INSERT INTO "_switchboard_instances" ("id","expiresAt") VALUES ($1, now() + $2 * interval '1 millisecond')
         ON CONFLICT ("id") DO UPDATE SET "expiresAt" = EXCLUDED."expiresAt"`,
        [this.instance, this.leaseMs],
      ),
    );
  }

  /**
   * Graceful stop: this instance's row goes at once, so survivors take over what it leaves without
   * waiting a lease; `announce` (a channel) tells them so, in the same statement, so one never
   * happens without the other.
   */
  async retire(announce: string): Promise<void> {
    await this.pool.query(
      named('WITH gone AS (DELETE FROM "_switchboard_instances" WHERE "id" = $1 RETURNING "id") SELECT pg_notify($2, "id") FROM gone', [this.instance, announce]),
    );
  }

  /** Removes the rows of instances whose lease expired; returns their ids. */
  async removeExpiredInstances(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(named('DELETE FROM "_switchboard_instances" WHERE "expiresAt" < now() AND "id" <> $1 RETURNING "id"', [this.instance]));
    return rows.map((r) => r.id);
  }

  /**
   * Running work nobody alive holds (see the file comment): inbound turns and outbound follows.
   * `ownPast`: also this instance's own leases (at start, from its previous life).
   */
  async orphanedWork(ownPast: boolean): Promise<OrphanedTurn[]> {
    const { rows } = await this.pool.query<OrphanedTurn>(
      named(
        `SELECT t."id", t."contextId", t."direction", l."instance" FROM "Task" t LEFT JOIN "_switchboard_turn_leases" l ON l."taskId" = t."id"
         WHERE t."state" IN ('submitted', 'working') AND (
           (l."instance" IS NOT NULL AND ((l."instance" = $1 AND $2) OR NOT EXISTS (SELECT 1 FROM "_switchboard_instances" i WHERE i."id" = l."instance")))
           OR (l."instance" IS NULL AND t."updatedAt" < (now() AT TIME ZONE 'UTC') - $3 * interval '1 millisecond'))
         ORDER BY t."createdAt" LIMIT 1000`,
        [this.instance, ownPast, this.leaseMs],
      ),
    );
    return rows;
  }

  /** Takes an orphan's lease for this instance, unless another survivor took it first. */
  async claimOrphan(orphan: OrphanedTurn): Promise<boolean> {
    const { rowCount } =
      orphan.instance === null
        ? await this.pool.query(named('INSERT INTO "_switchboard_turn_leases" ("taskId","instance") VALUES ($1, $2) ON CONFLICT DO NOTHING', [orphan.id, this.instance]))
        : await this.pool.query(named('UPDATE "_switchboard_turn_leases" SET "instance" = $2 WHERE "taskId" = $1 AND "instance" = $3', [orphan.id, this.instance, orphan.instance]));
    return (rowCount ?? 0) > 0;
  }

  async dropLeases(taskIds: string[]): Promise<void> {
    if (taskIds.length) await this.pool.query(named('DELETE FROM "_switchboard_turn_leases" WHERE "taskId" = ANY($1::text[])', [taskIds]));
  }

  /**
   * Pending outbox rows whose owner has no live row (dead, or stopped), in every owned outbox at
   * once: taken by this instance, one survivor per row (TAKE_OVER_OUTBOXES). Returns how many
   * rows of each outbox it took.
   */
  async takeOverOutboxRows(): Promise<OutboxCounts> {
    const { rows } = await this.pool.query<OutboxCounts>(named(TAKE_OVER_OUTBOXES, [this.instance]));
    return rows[0];
  }

  /** This instance's pending rows in each owned outbox, and how many have an attempt in flight. */
  async heldOutboxRows(): Promise<Record<OwnedOutbox, { pending: number; inFlight: number }>> {
    const { rows } = await this.pool.query<{ outbox: OwnedOutbox; pending: number; inFlight: number }>(named(HELD_OUTBOX_ROWS, [this.instance]));
    const held = (outbox: OwnedOutbox) => rows.find((r) => r.outbox === outbox) ?? { pending: 0, inFlight: 0 };
    return Object.fromEntries(OWNED_OUTBOXES.map((o) => [o, { pending: held(o).pending, inFlight: held(o).inFlight }])) as Record<OwnedOutbox, { pending: number; inFlight: number }>;
  }

  /** A turn started here: lease it in the next batch. */
  leaseTurn(taskId: string): void {
    this.heldIds.add(taskId);
    if (!this.toRelease.delete(taskId)) this.toLease.add(taskId);
    this.schedule();
  }

  /** A turn here ended: release it (if its lease was never written, nothing is sent). */
  releaseTurn(taskId: string): void {
    this.heldIds.delete(taskId);
    if (!this.toLease.delete(taskId)) this.toRelease.add(taskId);
    this.schedule();
  }

  /** Turns and follows this instance works on (leased, or about to be). */
  get held(): number {
    return this.heldIds.size;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  private async flush(): Promise<void> {
    this.timer = null;
    const lease = [...this.toLease];
    const release = [...this.toRelease];
    this.toLease.clear();
    this.toRelease.clear();
    try {
      if (lease.length) {
        await this.pool.query(
          named(
            `INSERT INTO "_switchboard_turn_leases" ("taskId","instance") SELECT unnest($1::text[]), $2
             ON CONFLICT ("taskId") DO UPDATE SET "instance" = EXCLUDED."instance"`,
            [lease, this.instance],
          ),
        );
      }
      await this.dropLeases(release);
    } catch (err) {
      // Put them back for the next batch (unless changed meanwhile): a lease must not be lost.
      for (const id of lease) if (this.heldIds.has(id) && !this.toRelease.has(id)) this.toLease.add(id);
      for (const id of release) if (!this.heldIds.has(id)) this.toRelease.add(id);
      log.warn('writing turn leases failed; retrying', { error: errorMessage(err) });
      this.timer ??= setTimeout(() => void this.flush(), 1_000);
    }
  }
}
