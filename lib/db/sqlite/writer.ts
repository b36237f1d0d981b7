/**
 * The task write path on SQLite: one better-sqlite3 connection, prepared statements, and each
 * change (task row + its events + messages) in one synchronous transaction.
 *
 * Why not Prisma here: an interactive Prisma transaction costs ~3 ms per event and holds the
 * write lock across awaits; a 2,000-chunk stream then takes seconds (measured, see
 * docs/decisions.md). A synchronous transaction never spans an await, so it cannot deadlock with
 * Prisma's single-statement writes on the other connection, and the compare-and-set of the
 * terminal claim is trivially atomic.
 *
 * Writes go through a WriteQueue (sqlite/write-queue.ts): the writes of one event-loop turn share one
 * transaction (group commit). The hot-path reads of the engine (a task, its events, messages and
 * artifacts) are prepared statements on this same connection: a Prisma query costs ~100 µs of
 * JavaScript, these ~5 µs, and an echo send makes four of them (docs/benchmarks.md).
 */
import Database from 'better-sqlite3';
import type { Artifact, ArtifactChunk, Message } from '../../protocol/types';
import { TERMINAL_STATES } from '../../protocol/types';
import { accumulateArtifacts } from '../../protocol/artifacts';
import { ContextTakenError, type NewEvent, type NewTask, type TaskPatch } from '../task-records';
import { WriteQueue } from './write-queue';
import { RunningArtifacts } from '../running-artifacts';
import { AppendRuns } from '../append-runs';
import { INSERT_COLUMNS, SQLITE_ENCODERS, insertValues, patchValue } from '../task-columns';
import { RESULT_TEXT_LIMIT, resultTextOf, serializeEvents, sqliteTime, type RawEventRow, type RawTaskRow, type SerializedEvent, type TaskWriter, type WriteGuard, type WriteResult } from '../task-store';
import { BACKSTOP_PAGES, startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer';
import { countQueries, queryLogEnabled } from '../query-counter';
import { writeOutboxSqlite } from './outboxes';
import { CHUNK_REF_TYPE, expandRefs, logRows, refRanges } from '../event-refs';
import { ROW_RANGE_SQL } from './reader';

export { RESULT_TEXT_LIMIT, sqliteTime, type RawTaskRow, type WriteGuard, type WriteResult };

/** The task insert, its columns from the column table (task-columns.ts): a new task column needs no edit here. */
const INSERT_TASK_SQL = `INSERT INTO "Task" (${INSERT_COLUMNS.map((c) => `"${c}"`).join(',')},"lastSeq","createdAt","updatedAt") VALUES (${INSERT_COLUMNS.map(() => '?').join(',')},?,?,?) RETURNING *`;

/** Distinct guarded-UPDATE shapes are few (patch keys × guards); prepared once each. */
const MAX_CACHED_UPDATES = 256;

export class SqliteTaskWriter implements TaskWriter {
  readonly conn: Database.Database;
  private readonly stmts;
  private readonly updates = new Map<string, Database.Statement>();
  private readonly queue: WriteQueue;
  private readonly runs = new AppendRuns();
  /** Artifacts of running tasks, so the terminal claim need not re-read the chunks. */
  readonly running = new RunningArtifacts();
  /** Copies the WAL into the database file on a worker thread (sqlite/wal-checkpointer.ts). */
  readonly checkpointer: WalCheckpointer;
  // Built once: better-sqlite3's transaction() prepares its BEGIN/SAVEPOINT statements per
  // call, which cost more than the rows of a streamed chunk (measured: +5 µs per write).
  private readonly insertTx;
  private readonly appendTx;

  constructor(file: string) {
    // With SWITCHBOARD_QUERY_LOG=1 every statement on this connection is counted (query-counter.ts).
    this.conn = new Database(file, { timeout: 10_000, verbose: queryLogEnabled() ? () => countQueries('sqlite') : undefined });
    this.conn.pragma('journal_mode = WAL');
    this.conn.pragma('synchronous = NORMAL');
    this.conn.pragma('foreign_keys = ON');
    this.conn.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.checkpointer = startWalCheckpointer(file);
    this.stmts = {
      insertEvent: this.conn.prepare('INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at") VALUES (?,?,?,?,?,?)'),
      insertMessage: this.conn.prepare('INSERT INTO "Message" ("taskId","messageId","role","parts","metadata","createdAt") VALUES (?,?,?,?,?,?)'),
      setResultText: this.conn.prepare('UPDATE "Task" SET "resultText" = ? WHERE "id" = ? RETURNING *'),
      artifactEvents: this.conn.prepare(
        `SELECT "taskId","seq","type","state","payload","at" FROM "TaskEvent" WHERE "taskId" = ? AND "type" IN ('artifact','${CHUNK_REF_TYPE}') ORDER BY "seq"`,
      ),
      rowRange: this.conn.prepare(ROW_RANGE_SQL),
      deleteArtifacts: this.conn.prepare('DELETE FROM "Artifact" WHERE "taskId" = ?'),
      insertArtifact: this.conn.prepare('INSERT INTO "Artifact" ("taskId","artifactId","position","name","description","parts","metadata") VALUES (?,?,?,?,?,?,?)'),
      insertTask: this.conn.prepare(INSERT_TASK_SQL),
      foreignInContext: this.conn.prepare(
        'SELECT 1 FROM "Task" WHERE "contextId" = ? AND NOT ("direction" = \'inbound\' AND "agentSlug" IS ? AND "owner" IS ?) LIMIT 1',
      ),
    };
    const begin = this.conn.transaction((fn: () => void) => fn());
    this.queue = new WriteQueue((fn) => {
      try {
        begin(fn);
      } catch (err) {
        this.running.clear(); // rolled back: the cache may hold chunks the database does not
        throw err;
      }
    });
    this.insertTx = this.conn.transaction((task: NewTask, events: SerializedEvent[], messages: Message[]) => this.insertRows(task, events, messages));
    this.appendTx = this.conn.transaction(
      (taskId: string, events: SerializedEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean) =>
        this.appendRows(taskId, events, patch, guard, messages, materialize),
    );
  }

  /** insertTask in the next group commit; resolves once committed. */
  queueInsertTask(task: NewTask, events: NewEvent[], messages: Message[]): Promise<WriteResult> {
    this.runs.close(task.id);
    const serialized = serializeEvents(events);
    return this.queue.enqueue(() => this.insertTx(task, serialized, messages));
  }

  /** append in the next group commit (merging plain appends: append-runs.ts); null when the guard failed. */
  queueAppend(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): Promise<WriteResult | null> {
    return this.runs.queue(taskId, events, patch, guard, messages, materialize, (begin) =>
      this.queue.enqueue(() => this.appendTx(taskId, begin(), patch, guard, messages, materialize)),
    );
  }

  private insertEvents(taskId: string, base: number, events: SerializedEvent[], at: string): WriteResult['events'] {
    // Stored: a run of a relay's chunks as one reference row (event-refs.ts); returned: every event.
    for (const row of logRows(events)) this.stmts.insertEvent.run(taskId, base + row.offset, row.type, row.state, row.payload, at);
    return events.map((e, i) => ({ seq: base + i + 1, type: e.type, state: e.state, payload: e.payload, value: e.value, at }));
  }

  private insertMessages(taskId: string, messages: Message[], at: string): void {
    for (const m of messages) {
      this.stmts.insertMessage.run(taskId, m.messageId, m.role, JSON.stringify(m.parts), m.metadata ? JSON.stringify(m.metadata) : null, at);
    }
  }

  /** Inserts a task with its first events and messages, in one transaction (a savepoint in a batch). */
  insertTask(task: NewTask, events: NewEvent[], messages: Message[]): WriteResult {
    return this.insertTx(task, serializeEvents(events), messages);
  }

  /** Guarded append: returns null (and writes nothing) when the guard does not hold. */
  append(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): WriteResult | null {
    return this.appendTx(taskId, serializeEvents(events), patch, guard, messages, materialize);
  }

  private insertRows(task: NewTask, events: SerializedEvent[], messages: Message[]): WriteResult {
    if (task.joinsContext && this.stmts.foreignInContext.get(task.contextId, task.agentSlug ?? null, task.owner ?? null)) {
      throw new ContextTakenError(task.contextId);
    }
    const at = sqliteTime(new Date());
    const row = this.stmts.insertTask.get(...insertValues(task, SQLITE_ENCODERS), events.length, at, at) as RawTaskRow;
    const written = this.insertEvents(task.id, 0, events, at);
    this.insertMessages(task.id, messages, at);
    this.running.start(task.id, events);
    const result = { row, events: written };
    writeOutboxSqlite(this.conn, result); // in this write's savepoint: committed with it or not at all
    return result;
  }

  private appendRows(taskId: string, events: SerializedEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): WriteResult | null {
    const at = sqliteTime(new Date());
    // A claim whose artifacts the cache knows sets the result text in its own UPDATE (as on
    // PostgreSQL): one write of the task row, not a second UPDATE after the artifacts.
    const known = materialize ? this.running.known(taskId, events) : undefined;
    const { sql, params } = this.updateSql(taskId, events.length, patch, guard, at, known);
    let row = this.updateStatement(sql).get(...params) as RawTaskRow | undefined;
    if (known) this.running.drop(taskId); // peeked and extended: its end either way
    if (!row) return null;
    const lastSeq = row.lastSeq as number;
    const written = this.insertEvents(taskId, lastSeq - events.length, events, at);
    this.insertMessages(taskId, messages, at);
    if (known?.lastSeq === lastSeq) this.storeArtifacts(taskId, known.artifacts);
    else if (materialize) row = this.materializeArtifacts(taskId, lastSeq) ?? row;
    else {
      this.running.extend(taskId, lastSeq - events.length, events);
      if (patch.state && patch.state !== 'working') this.running.drop(taskId);
    }
    const result = { row, events: written };
    writeOutboxSqlite(this.conn, result); // in this write's savepoint: committed with it or not at all
    return result;
  }

  private updateSql(taskId: string, count: number, patch: TaskPatch, guard: WriteGuard, at: string, known?: { artifacts: Artifact[]; lastSeq: number }) {
    const sets = ['"lastSeq" = "lastSeq" + ?', '"updatedAt" = ?'];
    const params: unknown[] = [count, at];
    if (known) {
      // Only if the cache saw every event (the row's lastSeq after this append is the cache's); SET reads the old row.
      const text = resultTextOf(known.artifacts);
      sets.push('"resultText" = CASE WHEN "lastSeq" + ? = ? AND ? <> \'\' THEN ? ELSE "resultText" END');
      params.push(count, known.lastSeq, text, text);
    }
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      sets.push(`"${key}" = ?`);
      params.push(patchValue(key as keyof TaskPatch, value, SQLITE_ENCODERS));
    }
    const where = ['"id" = ?'];
    params.push(taskId);
    const states = guard.onlyIfNotTerminal ? null : guard.onlyIfStateIn;
    if (guard.onlyIfNotTerminal) {
      where.push(`"state" NOT IN (${TERMINAL_STATES.map(() => '?').join(',')})`);
      params.push(...TERMINAL_STATES);
    }
    if (states) {
      where.push(`"state" IN (${states.map(() => '?').join(',')})`);
      params.push(...states);
    }
    if (guard.onlyIfNotDetached) where.push('"detached" = 0');
    return { sql: `UPDATE "Task" SET ${sets.join(', ')} WHERE ${where.join(' AND ')} RETURNING *`, params };
  }

  private updateStatement(sql: string): Database.Statement {
    let stmt = this.updates.get(sql);
    if (!stmt) {
      if (this.updates.size >= MAX_CACHED_UPDATES) this.updates.clear();
      this.updates.set(sql, (stmt = this.conn.prepare(sql)));
    }
    return stmt;
  }

  /** After the claim, from the log (no complete cache): returns the task row when it changed it (a non-empty result text). */
  private materializeArtifacts(taskId: string, lastSeq: number): RawTaskRow | undefined {
    const artifacts: Artifact[] = this.running.take(taskId, lastSeq) ?? this.artifactsFromLog(taskId);
    this.storeArtifacts(taskId, artifacts);
    const resultText = resultTextOf(artifacts);
    return resultText ? (this.stmts.setResultText.get(resultText, taskId) as RawTaskRow) : undefined;
  }

  private storeArtifacts(taskId: string, artifacts: Artifact[]): void {
    this.stmts.deleteArtifacts.run(taskId);
    artifacts.forEach((a, position) => {
      this.stmts.insertArtifact.run(taskId, a.artifactId, position, a.name ?? null, a.description ?? null, JSON.stringify(a.parts), a.metadata ? JSON.stringify(a.metadata) : null);
    });
  }

  private artifactsFromLog(taskId: string): Artifact[] {
    const rows = this.stmts.artifactEvents.all(taskId) as RawEventRow[];
    const referenced = refRanges(rows).flatMap((r) => this.stmts.rowRange.all(r.taskId, r.from, r.to) as RawEventRow[]);
    const chunks = expandRefs(rows, referenced, () => 0).map((r) => JSON.parse(r.payload) as ArtifactChunk);
    return accumulateArtifacts(chunks);
  }

  close(): void {
    void this.checkpointer.stop();
    this.conn.close();
  }
}
