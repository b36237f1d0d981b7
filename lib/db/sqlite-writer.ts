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
 * Writes go through a WriteQueue (write-queue.ts): the writes of one event-loop turn share one
 * transaction (group commit). The hot-path reads of the engine (a task, its events, messages and
 * artifacts) are prepared statements on this same connection: a Prisma query costs ~100 µs of
 * JavaScript, these ~5 µs, and an echo send makes four of them (docs/benchmarks.md).
 */
import Database from 'better-sqlite3';
import type { Artifact, ArtifactChunk, Message, TaskState } from '../protocol/types';
import { TERMINAL_STATES, textOf } from '../protocol/types';
import { accumulateArtifacts } from '../protocol/artifacts';
import { ContextTakenError, type NewEvent, type NewTask, type TaskPatch } from './task-records';
import { WriteQueue } from './write-queue';
import { RunningArtifacts, type WrittenEvent } from './running-artifacts';
import { BACKSTOP_PAGES, startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer';

export const RESULT_TEXT_LIMIT = 8_000;

/** Prisma's SQLite DateTime text format, so both connections sort and compare alike. */
export const sqliteTime = (d: Date): string => d.toISOString().replace('Z', '+00:00');

export interface RawTaskRow {
  [column: string]: unknown;
}

export interface WriteGuard {
  onlyIfStateIn?: readonly TaskState[];
  onlyIfNotTerminal?: boolean;
  onlyIfNotDetached?: boolean;
}

export interface WriteResult {
  row: RawTaskRow;
  /** `payload` is the stored JSON; `value` the object it was made from. */
  events: { seq: number; type: string; state: string | null; payload: string; value: unknown; at: string }[];
}

const PATCH_COLUMNS: Record<keyof TaskPatch, (v: unknown) => unknown> = {
  state: (v) => v,
  statusMessage: (v) => (v === null ? null : JSON.stringify(v)),
  detached: (v) => (v ? 1 : 0),
  detachedAt: (v) => (v ? sqliteTime(v as Date) : null),
  endReason: (v) => v,
  resultText: (v) => v,
  remoteTaskId: (v) => v,
  peerUrl: (v) => v,
  metadata: (v) => (v === null ? null : JSON.stringify(v)),
  follow: (v) => (v === null ? null : JSON.stringify(v)),
  endedAt: (v) => (v ? sqliteTime(v as Date) : null),
};

/**
 * An event with its payload already serialised. Queued writes serialise when they are queued,
 * not when the batch runs, so a caller that reuses or changes a payload object after queuing it
 * cannot change what gets stored. `value` (the object itself) feeds RunningArtifacts: payloads
 * handed to the writer are not to be changed afterwards.
 */
interface SerializedEvent extends WrittenEvent {
  type: NewEvent['type'];
  state: string | null;
}

const serialize = (events: NewEvent[]): SerializedEvent[] =>
  events.map((e) => ({ type: e.type, state: e.state ?? null, value: e.payload ?? null, payload: JSON.stringify(e.payload ?? null) }));

/** A queued plain append that later plain appends to the same task may join (queueAppend). */
interface OpenRun {
  key: string | null;
  events: SerializedEvent[];
  result: Promise<WriteResult | null>;
}

const guardKey = (g: WriteGuard): string => `${g.onlyIfNotTerminal ? 1 : 0}${g.onlyIfNotDetached ? 1 : 0}:${g.onlyIfStateIn?.join(',') ?? ''}`;

/** Distinct guarded-UPDATE shapes are few (patch keys × guards); prepared once each. */
const MAX_CACHED_UPDATES = 256;

export class SqliteTaskWriter {
  readonly conn: Database.Database;
  private readonly stmts;
  private readonly updates = new Map<string, Database.Statement>();
  private readonly queue: WriteQueue;
  private readonly openRuns = new Map<string, OpenRun>();
  /** Artifacts of running tasks, so the terminal claim need not re-read the chunks. */
  readonly running = new RunningArtifacts();
  /** Copies the WAL into the database file on a worker thread (wal-checkpointer.ts). */
  readonly checkpointer: WalCheckpointer;
  // Built once: better-sqlite3's transaction() prepares its BEGIN/SAVEPOINT statements per
  // call, which cost more than the rows of a streamed chunk (measured: +5 µs per write).
  private readonly insertTx;
  private readonly appendTx;

  constructor(file: string) {
    this.conn = new Database(file, { timeout: 10_000 });
    this.conn.pragma('journal_mode = WAL');
    this.conn.pragma('synchronous = NORMAL');
    this.conn.pragma('foreign_keys = ON');
    this.conn.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.checkpointer = startWalCheckpointer(file);
    this.stmts = {
      insertEvent: this.conn.prepare('INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at") VALUES (?,?,?,?,?,?)'),
      insertMessage: this.conn.prepare('INSERT INTO "Message" ("taskId","messageId","role","parts","metadata","createdAt") VALUES (?,?,?,?,?,?)'),
      setResultText: this.conn.prepare('UPDATE "Task" SET "resultText" = ? WHERE "id" = ? RETURNING *'),
      artifactEvents: this.conn.prepare('SELECT "payload" FROM "TaskEvent" WHERE "taskId" = ? AND "type" = \'artifact\' ORDER BY "seq"'),
      deleteArtifacts: this.conn.prepare('DELETE FROM "Artifact" WHERE "taskId" = ?'),
      insertArtifact: this.conn.prepare('INSERT INTO "Artifact" ("taskId","artifactId","position","name","description","parts","metadata") VALUES (?,?,?,?,?,?,?)'),
      insertTask: this.conn.prepare(
        'INSERT INTO "Task" ("id","contextId","direction","agentSlug","peerName","peerUrl","owner","ownerName","state","requestText","metadata","follow","traceContext","parentTaskId","lastSeq","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING *',
      ),
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
    this.openRuns.delete(task.id);
    const serialized = serialize(events);
    return this.queue.enqueue(() => this.insertTx(task, serialized, messages));
  }

  /**
   * append in the next group commit; resolves (null when the guard failed) once committed.
   *
   * Plain appends (events only: no patch, messages or materialisation) to a task whose latest
   * queued write is a plain append with the same guard are merged into it: one guarded UPDATE
   * for the whole run of a stream's chunks instead of one per chunk. Each caller still gets
   * exactly its own events (with their seqs) and the row as the merged write left it. Any other
   * write for the task closes the run, so the order of a task's writes never changes.
   */
  queueAppend(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): Promise<WriteResult | null> {
    const plain = !materialize && messages.length === 0 && Object.values(patch).every((v) => v === undefined);
    const key = plain ? guardKey(guard) : null;
    const open = this.openRuns.get(taskId);
    if (key !== null && open?.key === key) {
      const from = open.events.length;
      open.events.push(...serialize(events));
      return open.result.then((r) => r && { row: r.row, events: r.events.slice(from, from + events.length) });
    }
    const run: OpenRun = { key, events: serialize(events), result: Promise.resolve(null) };
    run.result = this.queue.enqueue(() => {
      if (this.openRuns.get(taskId) === run) this.openRuns.delete(taskId);
      return this.appendTx(taskId, run.events, patch, guard, messages, materialize);
    });
    if (key !== null) this.openRuns.set(taskId, run);
    else this.openRuns.delete(taskId);
    return run.result.then((r) => r && { row: r.row, events: r.events.slice(0, events.length) });
  }

  private insertEvents(taskId: string, base: number, events: SerializedEvent[], at: string): WriteResult['events'] {
    return events.map((e, i) => {
      const row = { seq: base + i + 1, type: e.type, state: e.state, payload: e.payload, value: e.value, at };
      this.stmts.insertEvent.run(taskId, row.seq, row.type, row.state, row.payload, at);
      return row;
    });
  }

  private insertMessages(taskId: string, messages: Message[], at: string): void {
    for (const m of messages) {
      this.stmts.insertMessage.run(taskId, m.messageId, m.role, JSON.stringify(m.parts), m.metadata ? JSON.stringify(m.metadata) : null, at);
    }
  }

  /** Inserts a task with its first events and messages, in one transaction (a savepoint in a batch). */
  insertTask(task: NewTask, events: NewEvent[], messages: Message[]): WriteResult {
    return this.insertTx(task, serialize(events), messages);
  }

  /** Guarded append: returns null (and writes nothing) when the guard does not hold. */
  append(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): WriteResult | null {
    return this.appendTx(taskId, serialize(events), patch, guard, messages, materialize);
  }

  private insertRows(task: NewTask, events: SerializedEvent[], messages: Message[]): WriteResult {
    if (task.joinsContext && this.stmts.foreignInContext.get(task.contextId, task.agentSlug ?? null, task.owner ?? null)) {
      throw new ContextTakenError(task.contextId);
    }
    const at = sqliteTime(new Date());
    const row = this.stmts.insertTask.get(
      task.id, task.contextId, task.direction, task.agentSlug ?? null, task.peerName ?? null, task.peerUrl ?? null,
      task.owner ?? null, task.ownerName ?? null, task.state, task.requestText, task.metadata ? JSON.stringify(task.metadata) : null,
      task.follow ? JSON.stringify(task.follow) : null, task.traceContext ? JSON.stringify(task.traceContext) : null, task.parentTaskId ?? null,
      events.length, at, at,
    ) as RawTaskRow;
    const written = this.insertEvents(task.id, 0, events, at);
    this.insertMessages(task.id, messages, at);
    this.running.start(task.id, events);
    return { row, events: written };
  }

  private appendRows(taskId: string, events: SerializedEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): WriteResult | null {
    const at = sqliteTime(new Date());
    const { sql, params } = this.updateSql(taskId, events.length, patch, guard, at);
    let row = this.updateStatement(sql).get(...params) as RawTaskRow | undefined;
    if (!row) return null;
    const lastSeq = row.lastSeq as number;
    const written = this.insertEvents(taskId, lastSeq - events.length, events, at);
    this.insertMessages(taskId, messages, at);
    this.running.extend(taskId, lastSeq - events.length, events);
    if (materialize) row = this.materializeArtifacts(taskId, lastSeq) ?? row;
    else if (patch.state && patch.state !== 'working') this.running.drop(taskId);
    return { row, events: written };
  }

  private updateSql(taskId: string, count: number, patch: TaskPatch, guard: WriteGuard, at: string) {
    const sets = ['"lastSeq" = "lastSeq" + ?', '"updatedAt" = ?'];
    const params: unknown[] = [count, at];
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      sets.push(`"${key}" = ?`);
      params.push(PATCH_COLUMNS[key as keyof TaskPatch](value));
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

  /** Returns the task row when it changed it (a non-empty result text). */
  private materializeArtifacts(taskId: string, lastSeq: number): RawTaskRow | undefined {
    const artifacts: Artifact[] = this.running.take(taskId, lastSeq) ?? this.artifactsFromLog(taskId);
    this.stmts.deleteArtifacts.run(taskId);
    artifacts.forEach((a, position) => {
      this.stmts.insertArtifact.run(taskId, a.artifactId, position, a.name ?? null, a.description ?? null, JSON.stringify(a.parts), a.metadata ? JSON.stringify(a.metadata) : null);
    });
    const resultText = artifacts.map((a) => textOf(a.parts)).join('\n').slice(0, RESULT_TEXT_LIMIT);
    return resultText ? (this.stmts.setResultText.get(resultText, taskId) as RawTaskRow) : undefined;
  }

  private artifactsFromLog(taskId: string): Artifact[] {
    const chunks = (this.stmts.artifactEvents.all(taskId) as { payload: string }[]).map((r) => JSON.parse(r.payload) as ArtifactChunk);
    return accumulateArtifacts(chunks);
  }

  close(): void {
    void this.checkpointer.stop();
    this.conn.close();
  }
}
