/**
 * The task write path on SQLite: one better-sqlite3 connection, prepared statements, and each
 * change (task row + its events + messages) in one synchronous transaction.
 *
 * Why not Prisma here: an interactive Prisma transaction costs ~3 ms per event and holds the
 * write lock across awaits; a 2,000-chunk stream then takes seconds (measured, see
 * docs/decisions.md). A synchronous transaction never spans an await, so it cannot deadlock with
 * Prisma's single-statement writes on the other connection, and the compare-and-set of the
 * terminal claim is trivially atomic. Reads stay on Prisma.
 */
import Database from 'better-sqlite3';
import type { Artifact, ArtifactChunk, Message, TaskState } from '../protocol/types';
import { TERMINAL_STATES, textOf } from '../protocol/types';
import { accumulateArtifacts } from '../protocol/artifacts';
import type { NewEvent, NewTask, TaskPatch } from './task-records';

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
  events: { seq: number; type: string; state: string | null; payload: string; at: string }[];
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

export class SqliteTaskWriter {
  private readonly conn: Database.Database;
  private readonly stmts;

  constructor(file: string) {
    this.conn = new Database(file, { timeout: 10_000 });
    this.conn.pragma('journal_mode = WAL');
    this.conn.pragma('synchronous = NORMAL');
    this.conn.pragma('foreign_keys = ON');
    this.stmts = {
      insertEvent: this.conn.prepare('INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at") VALUES (?,?,?,?,?,?)'),
      insertMessage: this.conn.prepare('INSERT INTO "Message" ("taskId","messageId","role","parts","metadata","createdAt") VALUES (?,?,?,?,?,?)'),
      selectTask: this.conn.prepare('SELECT * FROM "Task" WHERE "id" = ?'),
      artifactEvents: this.conn.prepare('SELECT "payload" FROM "TaskEvent" WHERE "taskId" = ? AND "type" = \'artifact\' ORDER BY "seq"'),
      deleteArtifacts: this.conn.prepare('DELETE FROM "Artifact" WHERE "taskId" = ?'),
      insertArtifact: this.conn.prepare('INSERT INTO "Artifact" ("taskId","artifactId","position","name","description","parts","metadata") VALUES (?,?,?,?,?,?,?)'),
      insertTask: this.conn.prepare(
        'INSERT INTO "Task" ("id","contextId","direction","agentSlug","peerName","peerUrl","state","requestText","metadata","follow","lastSeq","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)',
      ),
    };
  }

  private insertEvents(taskId: string, base: number, events: NewEvent[], at: string): WriteResult['events'] {
    return events.map((e, i) => {
      const row = { seq: base + i + 1, type: e.type, state: e.state ?? null, payload: JSON.stringify(e.payload ?? null), at };
      this.stmts.insertEvent.run(taskId, row.seq, row.type, row.state, row.payload, at);
      return row;
    });
  }

  private insertMessages(taskId: string, messages: Message[], at: string): void {
    for (const m of messages) {
      this.stmts.insertMessage.run(taskId, m.messageId, m.role, JSON.stringify(m.parts), m.metadata ? JSON.stringify(m.metadata) : null, at);
    }
  }

  insertTask(task: NewTask, events: NewEvent[], messages: Message[]): WriteResult {
    const at = sqliteTime(new Date());
    return this.conn.transaction(() => {
      this.stmts.insertTask.run(
        task.id, task.contextId, task.direction, task.agentSlug ?? null, task.peerName ?? null, task.peerUrl ?? null,
        task.state, task.requestText, task.metadata ? JSON.stringify(task.metadata) : null,
        task.follow ? JSON.stringify(task.follow) : null, events.length, at, at,
      );
      const written = this.insertEvents(task.id, 0, events, at);
      this.insertMessages(task.id, messages, at);
      return { row: this.stmts.selectTask.get(task.id) as RawTaskRow, events: written };
    })();
  }

  /** Guarded append: returns null (and writes nothing) when the guard does not hold. */
  append(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): WriteResult | null {
    const at = sqliteTime(new Date());
    return this.conn.transaction(() => {
      const { sql, params } = this.updateSql(taskId, events.length, patch, guard, at);
      if (this.conn.prepare(sql).run(...params).changes === 0) return null;
      let row = this.stmts.selectTask.get(taskId) as RawTaskRow;
      const written = this.insertEvents(taskId, (row.lastSeq as number) - events.length, events, at);
      this.insertMessages(taskId, messages, at);
      if (materialize) {
        this.materializeArtifacts(taskId);
        row = this.stmts.selectTask.get(taskId) as RawTaskRow;
      }
      return { row, events: written };
    })();
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
    return { sql: `UPDATE "Task" SET ${sets.join(', ')} WHERE ${where.join(' AND ')}`, params };
  }

  private materializeArtifacts(taskId: string): void {
    const chunks = (this.stmts.artifactEvents.all(taskId) as { payload: string }[]).map((r) => JSON.parse(r.payload) as ArtifactChunk);
    const artifacts: Artifact[] = accumulateArtifacts(chunks);
    this.stmts.deleteArtifacts.run(taskId);
    artifacts.forEach((a, position) => {
      this.stmts.insertArtifact.run(taskId, a.artifactId, position, a.name ?? null, a.description ?? null, JSON.stringify(a.parts), a.metadata ? JSON.stringify(a.metadata) : null);
    });
    const resultText = artifacts.map((a) => textOf(a.parts)).join('\n').slice(0, RESULT_TEXT_LIMIT);
    if (resultText) this.conn.prepare('UPDATE "Task" SET "resultText" = ? WHERE "id" = ?').run(resultText, taskId);
  }

  close(): void {
    this.conn.close();
  }
}
