/**
 * The task write path on PostgreSQL, with the SQLite writer's semantics (task-store.ts): each
 * change is one transaction (one statement, in fact: the guarded UPDATE of the task row, its
 * events and its messages are data-modifying CTEs of one query, so a change costs one round
 * trip), the terminal claim is the same compare-and-set on the row, and writes are group
 * committed (postgres/write-queue.ts). Statements are named, so each connection plans them once.
 *
 * Its columns come from the column table (task-columns.ts): a new task column needs no edit here.
 */
import type pg from 'pg';
import type { Artifact, ArtifactChunk, Message } from '../../protocol/types';
import { TERMINAL_STATES } from '../../protocol/types';
import { accumulateArtifacts } from '../../protocol/artifacts';
import { ContextTakenError, type NewEvent, type NewTask, type TaskPatch } from '../task-records';
import { RunningArtifacts } from '../running-artifacts';
import { INSERT_COLUMNS, PG_ENCODERS, insertValues, patchValue } from '../task-columns';
import { AppendRuns } from '../append-runs';
import { PgWriteQueue, type PgWriteQueueHooks } from './write-queue';
import { named } from './pool';
import { CHUNK_REF_TYPE, expandRefs, logRows, refRanges } from '../event-refs';
import { readRowRanges } from './reader';
import { resultTextOf, serializeEvents, sqliteTime, type RawEventRow, type RawTaskRow, type SerializedEvent, type TaskWriter, type WriteGuard, type WriteResult } from '../task-store';

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * The events and messages of a change, as array parameters for unnest(). Stored: a run of a
 * relay's chunks as one reference row (event-refs.ts), each row at its offset after the base.
 */
const eventArrays = (events: SerializedEvent[]) => {
  const rows = logRows(events);
  return [rows.map((r) => r.type), rows.map((r) => r.state), rows.map((r) => r.payload), rows.map((r) => r.offset)];
};
const messageArrays = (messages: Message[]) => [
  messages.map((m) => m.messageId),
  messages.map((m) => m.role),
  messages.map((m) => JSON.stringify(m.parts)),
  messages.map((m) => json(m.metadata)),
];

/** CTEs that insert the change's events (seqs after `base`) and messages, for the task row `t`. */
const childInserts = (base: string, p: number) => `
  e AS (INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at")
    SELECT t."id", ${base} + x.off, x.type, x.state, x.payload, $${p}::timestamp(3) FROM t,
      unnest($${p + 1}::text[], $${p + 2}::text[], $${p + 3}::text[], $${p + 4}::integer[]) AS x(type, state, payload, off)),
  m AS (INSERT INTO "Message" ("taskId","messageId","role","parts","metadata","createdAt")
    SELECT t."id", y.mid, y.role, y.parts, y.meta, $${p}::timestamp(3) FROM t,
      unnest($${p + 5}::text[], $${p + 6}::text[], $${p + 7}::text[], $${p + 8}::text[]) WITH ORDINALITY AS y(mid, role, parts, meta, ord)
    ORDER BY y.ord)`;

const insertParam = (column: (typeof INSERT_COLUMNS)[number]) => `$${INSERT_COLUMNS.indexOf(column) + 1}`;
const TASK_COLUMNS = `${INSERT_COLUMNS.map((c) => `"${c}"`).join(',')},"lastSeq","createdAt","updatedAt"`;
const TASK_VALUES = `${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(',')}, $${INSERT_COLUMNS.length + 1}::integer, $${INSERT_COLUMNS.length + 2}::timestamp(3), $${INSERT_COLUMNS.length + 2}::timestamp(3)`;

/** A task of another owner or agent in the context (sqlite/writer.ts has the same check). */
const FOREIGN_IN_CONTEXT = `SELECT 1 FROM "Task" WHERE "contextId" = ${insertParam('contextId')}
  AND NOT ("direction" = 'inbound' AND "agentSlug" IS NOT DISTINCT FROM ${insertParam('agentSlug')} AND "owner" IS NOT DISTINCT FROM ${insertParam('owner')})`;

const insertTaskSql = (guard: string) => `WITH t AS (
  INSERT INTO "Task" (${TASK_COLUMNS}) SELECT ${TASK_VALUES}${guard}
  RETURNING *),${childInserts('0', INSERT_COLUMNS.length + 2)}
SELECT * FROM t`;

const INSERT_TASK_SQL = insertTaskSql('');
/** A `joinsContext` insert: no row (and no events or messages) when the context is another owner's. */
const JOIN_CONTEXT_SQL = insertTaskSql(` WHERE NOT EXISTS (${FOREIGN_IN_CONTEXT})`);

/**
 * Serialises the joins of one context across instances until the transaction ends, so two
 * callers cannot both claim a new context; taken in its own statement, so the guarded insert's
 * snapshot (READ COMMITTED: per statement) sees a claim committed while this one waited.
 * Two-key advisory locks never meet the one-key locks of postgres/migrate.ts.
 */
const CONTEXT_LOCK_CLASS = 0x5b_c7;
const LOCK_CONTEXT_SQL = 'SELECT pg_advisory_xact_lock($1, hashtext($2))';

/**
 * CTEs that store a task's accumulated artifacts ($p: ids, names, descriptions, parts, metadata
 * arrays), only if `gate` holds: upserted in order, and any other stored artifact removed.
 */
const artifactCtes = (task: string, p: number, gate: string) => `
  d AS (DELETE FROM "Artifact" WHERE "taskId" = ${task} AND "artifactId" <> ALL($${p}::text[]) AND ${gate}),
  a AS (INSERT INTO "Artifact" ("taskId","artifactId","position","name","description","parts","metadata")
    SELECT ${task}, z.id, z.ord - 1, z.name, z.description, z.parts, z.meta
    FROM unnest($${p}::text[], $${p + 1}::text[], $${p + 2}::text[], $${p + 3}::text[], $${p + 4}::text[]) WITH ORDINALITY AS z(id, name, description, parts, meta, ord)
    WHERE ${gate}
    ON CONFLICT ("taskId","artifactId") DO UPDATE SET "position" = EXCLUDED."position", "name" = EXCLUDED."name",
      "description" = EXCLUDED."description", "parts" = EXCLUDED."parts", "metadata" = EXCLUDED."metadata")`;

const artifactArrays = (artifacts: Artifact[]) => [
  artifacts.map((a) => a.artifactId),
  artifacts.map((a) => a.name ?? null),
  artifacts.map((a) => a.description ?? null),
  artifacts.map((a) => JSON.stringify(a.parts)),
  artifacts.map((a) => json(a.metadata)),
];

/** Stores the artifacts and the result text after the claim, when they were not known before it. */
const MATERIALIZE_SQL = `WITH${artifactCtes('$1', 2, 'true')}
UPDATE "Task" SET "resultText" = $7 WHERE "id" = $1 AND $7 <> '' RETURNING *`;

/** Artifacts known before the claim (the running cache): stored by the claim's own statement. */
interface KnownArtifacts {
  artifacts: Artifact[];
  /** The claim stores them only if the row's lastSeq after it is this (the cache saw every event). */
  lastSeq: number;
}

const ARTIFACT_EVENTS_SQL = `SELECT "taskId","seq","type","state","payload","at" FROM "TaskEvent" WHERE "taskId" = $1 AND "type" IN ('artifact','${CHUNK_REF_TYPE}') ORDER BY "seq"`;

export class PgTaskWriter implements TaskWriter {
  private readonly queue: PgWriteQueue;
  private readonly runs = new AppendRuns();
  /** Artifacts of running tasks, so the terminal claim need not re-read the chunks. */
  readonly running = new RunningArtifacts();

  constructor(pool: pg.Pool, ready: Promise<unknown>, hooks: Pick<PgWriteQueueHooks, 'withCommit'> = {}) {
    this.queue = new PgWriteQueue(pool, ready, { ...hooks, onRollback: () => this.running.clear() });
  }

  queueInsertTask(task: NewTask, events: NewEvent[], messages: Message[]): Promise<WriteResult> {
    this.runs.close(task.id);
    const serialized = serializeEvents(events);
    return this.queue.enqueue((client) => this.insertRows(client, task, serialized, messages), [task.id, `context:${task.contextId}`]);
  }

  queueAppend(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): Promise<WriteResult | null> {
    return this.runs.queue(taskId, events, patch, guard, messages, materialize, (begin) =>
      this.queue.enqueue((client) => this.appendRows(client, taskId, begin(), patch, guard, messages, materialize), [taskId]),
    );
  }

  private async insertRows(client: pg.PoolClient, task: NewTask, events: SerializedEvent[], messages: Message[]): Promise<WriteResult> {
    const at = sqliteTime(new Date());
    const values = [...insertValues(task, PG_ENCODERS), events.length, at, ...eventArrays(events), ...messageArrays(messages)];
    if (task.joinsContext) await client.query(named(LOCK_CONTEXT_SQL, [CONTEXT_LOCK_CLASS, task.contextId]));
    const row = (await client.query<RawTaskRow>(named(task.joinsContext ? JOIN_CONTEXT_SQL : INSERT_TASK_SQL, values))).rows[0];
    if (!row) throw new ContextTakenError(task.contextId);
    this.running.start(task.id, events);
    return { row, events: events.map((e, i) => ({ seq: i + 1, type: e.type, state: e.state, payload: e.payload, value: e.value, at })) };
  }

  private async appendRows(
    client: pg.PoolClient, taskId: string, events: SerializedEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean,
  ): Promise<WriteResult | null> {
    const at = sqliteTime(new Date());
    const known = materialize ? this.running.known(taskId, events) : undefined;
    const { text, values } = appendSql(taskId, events, patch, guard, messages, at, known);
    let row: RawTaskRow | undefined = (await client.query<RawTaskRow>(named(text, values))).rows[0];
    if (known) this.running.drop(taskId); // peeked and extended: its end either way
    if (!row) return null;
    const lastSeq = row.lastSeq as number;
    const base = lastSeq - events.length;
    if (materialize) {
      if (known?.lastSeq !== lastSeq) row = (await this.materializeArtifacts(client, taskId, lastSeq)) ?? row;
    } else {
      this.running.extend(taskId, base, events);
      if (patch.state && patch.state !== 'working') this.running.drop(taskId);
    }
    return { row, events: events.map((e, i) => ({ seq: base + i + 1, type: e.type, state: e.state, payload: e.payload, value: e.value, at })) };
  }

  /** After the claim, from the log (no complete cache): returns the task row when it changed it. */
  private async materializeArtifacts(client: pg.PoolClient, taskId: string, lastSeq: number): Promise<RawTaskRow | undefined> {
    const artifacts: Artifact[] = this.running.take(taskId, lastSeq) ?? (await artifactsFromLog(client, taskId));
    return (await client.query<RawTaskRow>(named(MATERIALIZE_SQL, [taskId, ...artifactArrays(artifacts), resultTextOf(artifacts)]))).rows[0];
  }
}

async function artifactsFromLog(client: pg.PoolClient, taskId: string): Promise<Artifact[]> {
  const rows = (await client.query<RawEventRow>(named(ARTIFACT_EVENTS_SQL, [taskId]))).rows;
  const referenced = await readRowRanges((q) => client.query<RawEventRow>(q), refRanges(rows));
  return accumulateArtifacts(expandRefs(rows, referenced, () => 0).map((r) => JSON.parse(r.payload) as ArtifactChunk));
}

/** The guarded UPDATE of the task row (the compare-and-set) with the change's inserts, as one statement. */
function appendSql(taskId: string, events: SerializedEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], at: string, known?: KnownArtifacts) {
  const values: unknown[] = [taskId, events.length, at];
  const sets = ['"lastSeq" = "lastSeq" + $2', '"updatedAt" = $3'];
  if (known) {
    values.push(known.lastSeq, resultTextOf(known.artifacts));
    sets.push('"resultText" = CASE WHEN "lastSeq" + $2 = $4 AND $5 <> \'\' THEN $5 ELSE "resultText" END');
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    values.push(patchValue(key as keyof TaskPatch, value, PG_ENCODERS));
    sets.push(`"${key}" = $${values.length}`);
  }
  const where = ['"id" = $1'];
  if (guard.onlyIfNotTerminal) {
    values.push(TERMINAL_STATES);
    where.push(`"state" <> ALL($${values.length}::text[])`);
  } else if (guard.onlyIfStateIn) {
    values.push(guard.onlyIfStateIn);
    where.push(`"state" = ANY($${values.length}::text[])`);
  }
  if (guard.onlyIfNotDetached) where.push('"detached" = false');
  const p = values.length + 1;
  values.push(at, ...eventArrays(events), ...messageArrays(messages));
  let ctes = childInserts('t."lastSeq" - $2', p);
  if (known) {
    ctes += `,${artifactCtes('$1', values.length + 1, 'EXISTS (SELECT 1 FROM t WHERE t."lastSeq" = $4)')}`;
    values.push(...artifactArrays(known.artifacts));
  }
  const text = `WITH t AS (UPDATE "Task" SET ${sets.join(', ')} WHERE ${where.join(' AND ')} RETURNING *),${ctes}
SELECT * FROM t`;
  return { text, values };
}
