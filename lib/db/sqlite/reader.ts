/**
 * The engine's hot-path reads on SQLite, as prepared statements on the task writer's
 * connection: one task row, its event log after a seq, its messages, its stored artifacts.
 * Every blocking send, stream and subscription makes several of these; through Prisma each
 * costs ~80–160 µs of query building and result mapping, here ~5 µs (docs/benchmarks.md).
 * Rows come back raw; task-repo.ts maps them to the plain records callers see.
 */
import type Database from 'better-sqlite3';
import type { RawArtifactRow, RawChanges, RawEventRow, RawMessageRow, RawSentMessage, RawTaskParts, RawTaskRow, SentMessageScope, TaskCursor, TaskReader } from '../task-store';
import { isTerminalState, OPEN_STATES, type TaskState } from '../../protocol/types';
import { countQueries } from '../query-counter';
import { CHUNK_REF_TYPE, chunkRefOf, expandRefs, refRanges, withRefType } from '../event-refs';

export type { RawEventRow, RawMessageRow, RawArtifactRow };

const EVENT_COLUMNS = '"taskId","seq","type","state","payload","at"';
/** The rows a chunk reference names (event-refs.ts): the reader's and the writer's claim read. */
export const ROW_RANGE_SQL = `SELECT ${EVENT_COLUMNS} FROM "TaskEvent" WHERE "taskId" = ? AND "seq" BETWEEN ? AND ? ORDER BY "seq"`;
const IN_OPEN_STATE = `"state" IN (${OPEN_STATES.map((s) => `'${s}'`).join(',')})`;
const OPEN_TASK_COUNT = `SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "Task" WHERE "owner" = @owner AND "direction" = 'inbound' AND ${IN_OPEN_STATE} LIMIT @atMost)`;

export class SqliteTaskReader implements TaskReader {
  private readonly stmts;
  private readonly eventsByTypes = new Map<string, Database.Statement>();

  constructor(private readonly conn: Database.Database) {
    this.stmts = {
      task: conn.prepare('SELECT * FROM "Task" WHERE "id" = ?'),
      events: conn.prepare(`SELECT ${EVENT_COLUMNS} FROM "TaskEvent" WHERE "taskId" = ? AND "seq" > ? ORDER BY "seq"`),
      messages: conn.prepare('SELECT "messageId","role","parts","metadata" FROM "Message" WHERE "taskId" = ? ORDER BY "id"'),
      lastMessages: conn.prepare('SELECT * FROM (SELECT "id","messageId","role","parts","metadata" FROM "Message" WHERE "taskId" = ? ORDER BY "id" DESC LIMIT ?) ORDER BY "id"'),
      artifactBytes: conn.prepare('SELECT COALESCE(SUM(LENGTH("payload")), 0) AS "bytes" FROM "TaskEvent" WHERE "taskId" = ? AND "type" = \'artifact\''),
      rowRange: conn.prepare(ROW_RANGE_SQL),
      rangeBytes: conn.prepare('SELECT COALESCE(SUM(LENGTH("payload")), 0) AS "bytes" FROM "TaskEvent" WHERE "taskId" = ? AND "seq" BETWEEN ? AND ?'),
      chunkRefs: conn.prepare(`SELECT "payload" FROM "TaskEvent" WHERE "taskId" = ? AND "type" = '${CHUNK_REF_TYPE}'`),
      artifacts: conn.prepare('SELECT "artifactId","name","description","parts","metadata" FROM "Artifact" WHERE "taskId" = ? ORDER BY "position"'),
      sentMessage: conn.prepare(
        'SELECT m."taskId", m."createdAt" FROM "Message" m JOIN "Task" t ON t."id" = m."taskId" WHERE m."messageId" = ? AND m."role" = \'user\' AND t."direction" = ? AND t."agentSlug" = ? AND t."owner" = ? ORDER BY m."id" DESC LIMIT 1',
      ),
      openTaskCount: conn.prepare(OPEN_TASK_COUNT),
      openInbound: conn.prepare(`SELECT COALESCE(SUM("count"), 0) AS "n" FROM "_task_tally" WHERE "direction" = 'inbound' AND ${IN_OPEN_STATE}`),
    };
  }

  task(taskId: string): RawTaskRow | undefined {
    countQueries('reads');
    return this.stmts.task.get(taskId) as RawTaskRow | undefined;
  }

  events(taskId: string, afterSeq: number, types?: readonly string[]): RawEventRow[] {
    return this.expanded(this.storedEvents(taskId, afterSeq, types), () => afterSeq);
  }

  /** The stored rows, reference rows included (event-refs.ts). */
  private storedEvents(taskId: string, afterSeq: number, types?: readonly string[]): RawEventRow[] {
    countQueries('reads');
    if (!types) return this.stmts.events.all(taskId, afterSeq) as RawEventRow[];
    const kinds = withRefType(types);
    const key = kinds.join(',');
    let stmt = this.eventsByTypes.get(key);
    if (!stmt) {
      const sql = `SELECT ${EVENT_COLUMNS} FROM "TaskEvent" WHERE "taskId" = ? AND "seq" > ? AND "type" IN (${kinds.map(() => '?').join(',')}) ORDER BY "seq"`;
      this.eventsByTypes.set(key, (stmt = this.conn.prepare(sql)));
    }
    return stmt.all(taskId, afterSeq, ...kinds) as RawEventRow[];
  }

  /** Reference rows replaced by the chunks they name (event-refs.ts): one read per run of chunks. */
  private expanded(rows: RawEventRow[], afterSeq: (taskId: string) => number): RawEventRow[] {
    const ranges = refRanges(rows);
    if (!ranges.length) return rows;
    const referenced = ranges.flatMap((r) => {
      countQueries('reads');
      return this.stmts.rowRange.all(r.taskId, r.from, r.to) as RawEventRow[];
    });
    return expandRefs(rows, referenced, afterSeq);
  }

  /** Oldest first; `limit` keeps only the most recent. */
  messages(taskId: string, limit?: number): RawMessageRow[] {
    countQueries('reads');
    return (limit === undefined ? this.stmts.messages.all(taskId) : this.stmts.lastMessages.all(taskId, limit)) as RawMessageRow[];
  }

  /** The stored JSON size of a task's artifact chunks (the output limit's measure), referenced ones included. */
  artifactBytes(taskId: string): number {
    countQueries('reads');
    const own = (this.stmts.artifactBytes.get(taskId) as { bytes: number }).bytes;
    const refs = this.stmts.chunkRefs.all(taskId) as { payload: string }[];
    return refs.reduce((sum, row) => {
      const ref = chunkRefOf(row);
      return sum + (this.stmts.rangeBytes.get(ref.task, ref.from, ref.from + ref.count - 1) as { bytes: number }).bytes;
    }, own);
  }

  artifacts(taskId: string): RawArtifactRow[] {
    countQueries('reads');
    return this.stmts.artifacts.all(taskId) as RawArtifactRow[];
  }

  sentMessage(scope: SentMessageScope, messageId: string): RawSentMessage | undefined {
    countQueries('reads');
    return this.stmts.sentMessage.get(messageId, scope.direction, scope.agentSlug, scope.owner) as RawSentMessage | undefined;
  }

  private openTaskCount(owner: string, atMost: number): number {
    countQueries('reads');
    return (this.stmts.openTaskCount.get({ owner, atMost }) as { n: number }).n;
  }

  /** Two statements, not PostgreSQL's one: no round trip to save, and one CASE over both cost 5× the tally read alone (measured). */
  openTaskBound(owner: string, atMost: number): number {
    countQueries('reads');
    const open = (this.stmts.openInbound.get() as { n: number }).n;
    return open < atMost ? open : this.openTaskCount(owner, atMost);
  }

  taskParts(taskId: string, messageLimit: number | null): RawTaskParts | undefined {
    const task = this.task(taskId);
    if (!task) return undefined;
    const messages = messageLimit === 0 ? [] : this.messages(taskId, messageLimit ?? undefined);
    return { task, messages, artifacts: isTerminalState(task.state as TaskState) ? this.artifacts(taskId) : [] };
  }

  changes(cursors: readonly TaskCursor[], taskIds: readonly string[]): RawChanges {
    const events = cursors.flatMap((c) => this.events(c.taskId, c.afterSeq));
    const tasks = taskIds.flatMap((id): RawTaskRow[] => {
      const row = this.task(id);
      return row ? [row] : [];
    });
    return { events, tasks };
  }
}
