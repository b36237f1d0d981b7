/**
 * The engine's hot-path reads on PostgreSQL (the same four as sqlite/reader.ts), as named
 * statements: planned once per connection, rows returned raw in the shapes task-repo.ts maps
 * for both providers. The first read waits for the migrations.
 *
 * Reads are coalesced per event-loop turn: those issued in one turn (the continuations of one
 * group commit issue theirs together) go out pipelined on one connection of the reader's own
 * pool, in one socket write, instead of one write and one round trip each on a connection of
 * their own. Outside a transaction a failing query fails alone; a lost connection fails the
 * reads in flight on it, as it would have one by one.
 */
import type pg from 'pg';
import type { RawArtifactRow, RawChanges, RawEventRow, RawMessageRow, RawSentMessage, RawTaskParts, RawTaskRow, SentMessageScope, TaskCursor, TaskReader } from '../task-store';
import { OPEN_STATES } from '../../protocol/types';
import { countQueries } from '../query-counter';
import { corked, named } from './pool';
import { CHUNK_REF_TYPE, expandRefs, refRanges, withRefType, type RowRange } from '../event-refs';

interface QueuedRead {
  query: pg.QueryConfig;
  resolve: (result: pg.QueryResult) => void;
  reject: (error: unknown) => void;
}

/** Sends the reads of one event-loop turn together on a pipelined connection of `pool`. */
export class PgReadPipe {
  private queue: QueuedRead[] = [];

  constructor(private readonly pool: pg.Pool) {}

  query<T extends pg.QueryResultRow>(query: pg.QueryConfig): Promise<pg.QueryResult<T>> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ query, resolve: resolve as QueuedRead['resolve'], reject }) === 1) setImmediate(() => void this.flush());
    });
  }

  /**
   * Several reads sent together, in this order, on one connection: PostgreSQL runs them one
   * after the other, so each sees at least what the one before it saw (one round trip).
   */
  inOrder<T extends pg.QueryResultRow>(queries: pg.QueryConfig[]): Promise<pg.QueryResult<T>[]> {
    // Queued in one go, they are adjacent in the same flush, which sends its reads in queue order on one client.
    return Promise.all(queries.map((q) => this.query<T>(q)));
  }

  private async flush(): Promise<void> {
    const reads = this.queue;
    this.queue = [];
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      for (const read of reads) read.reject(error);
      return;
    }
    const sent = corked(client, () => reads.map((read) => client.query(read.query).then(read.resolve, read.reject)));
    await Promise.all(sent);
    client.release();
  }
}

const EVENT_COLUMNS = '"taskId","seq","type","state","payload","at"';
const OPEN_TASK_COUNT = 'SELECT count(*)::int AS "n" FROM (SELECT 1 FROM "Task" WHERE "owner" = $1 AND "direction" = \'inbound\' AND "state" = ANY($2::text[]) LIMIT $3) AS open';
const SQL = {
  task: 'SELECT * FROM "Task" WHERE "id" = $1',
  events: `SELECT ${EVENT_COLUMNS} FROM "TaskEvent" WHERE "taskId" = $1 AND "seq" > $2 ORDER BY "seq"`,
  eventsOfTypes: `SELECT ${EVENT_COLUMNS} FROM "TaskEvent" WHERE "taskId" = $1 AND "seq" > $2 AND "type" = ANY($3::text[]) ORDER BY "seq"`,
  messages: 'SELECT "messageId","role","parts","metadata" FROM "Message" WHERE "taskId" = $1 ORDER BY "id"',
  lastMessages: 'SELECT * FROM (SELECT "id","messageId","role","parts","metadata" FROM "Message" WHERE "taskId" = $1 ORDER BY "id" DESC LIMIT $2) AS recent ORDER BY "id"',
  artifacts: 'SELECT "artifactId","name","description","parts","metadata" FROM "Artifact" WHERE "taskId" = $1 ORDER BY "position"',
  artifactBytes: 'SELECT COALESCE(SUM(LENGTH("payload")), 0) AS "bytes" FROM "TaskEvent" WHERE "taskId" = $1 AND "type" = \'artifact\'',
  // One round trip for a snapshot (a blocking send's answer): LIMIT NULL is no limit.
  taskParts: `SELECT t.*,
    (SELECT coalesce(json_agg(json_build_object('messageId', m."messageId", 'role', m."role", 'parts', m."parts", 'metadata', m."metadata") ORDER BY m."id"), '[]')
       FROM (SELECT * FROM "Message" WHERE "taskId" = t."id" ORDER BY "id" DESC LIMIT $2) AS m) AS "_messages",
    (SELECT coalesce(json_agg(json_build_object('artifactId', a."artifactId", 'name', a."name", 'description', a."description", 'parts', a."parts", 'metadata', a."metadata") ORDER BY a."position"), '[]')
       FROM "Artifact" a WHERE a."taskId" = t."id") AS "_artifacts"
    FROM "Task" t WHERE t."id" = $1`,
  sentMessage: `SELECT m."taskId", m."createdAt" FROM "Message" m JOIN "Task" t ON t."id" = m."taskId"
    WHERE m."messageId" = $1 AND m."role" = 'user' AND t."direction" = $2 AND t."agentSlug" = $3 AND t."owner" = $4 ORDER BY m."id" DESC LIMIT 1`,
  // The hub's open inbound tasks from the tallies (every shard: each is written in its task's
  // transaction); the caller's own only when they reach the limit (an InitPlan runs when used).
  openTaskBound: `SELECT CASE WHEN h."open" < $3 THEN h."open"::int ELSE (${OPEN_TASK_COUNT}) END AS "n"
    FROM (SELECT COALESCE(SUM("count"), 0) AS "open" FROM "_task_tally" WHERE "direction" = 'inbound' AND "state" = ANY($2::text[])) AS h`,
  // The relay's coalesced reads (pg-relay.ts): two statements, one round trip, for all tasks named meanwhile.
  tasks: 'SELECT * FROM "Task" WHERE "id" = ANY($1::text[])',
  eventsAfter: `SELECT e."taskId",e."seq",e."type",e."state",e."payload",e."at"
    FROM unnest($1::text[], $2::integer[]) AS c("taskId", "afterSeq")
    JOIN "TaskEvent" e ON e."taskId" = c."taskId" AND e."seq" > c."afterSeq"
    ORDER BY e."taskId", e."seq"`,
  // The rows reference rows name (event-refs.ts), every range in one statement.
  rowRanges: `SELECT e."taskId",e."seq",e."type",e."state",e."payload",e."at"
    FROM unnest($1::text[], $2::integer[], $3::integer[]) AS r("taskId", "from", "to")
    JOIN "TaskEvent" e ON e."taskId" = r."taskId" AND e."seq" BETWEEN r."from" AND r."to"`,
  refBytes: `SELECT COALESCE(SUM(LENGTH(e."payload")), 0) AS "bytes"
    FROM "TaskEvent" r JOIN "TaskEvent" e ON e."taskId" = r."payload"::json->>'task'
      AND e."seq" BETWEEN (r."payload"::json->>'from')::integer AND (r."payload"::json->>'from')::integer + (r."payload"::json->>'count')::integer - 1
    WHERE r."taskId" = $1 AND r."type" = '${CHUNK_REF_TYPE}'`,
};

/** The rows of `ranges` (none: no query), through `query` (the reader's pipe or a writer's connection). */
export async function readRowRanges(query: (q: pg.QueryConfig) => Promise<pg.QueryResult<RawEventRow>>, ranges: readonly RowRange[]): Promise<RawEventRow[]> {
  if (!ranges.length) return [];
  countQueries('reads');
  return (await query(named(SQL.rowRanges, [ranges.map((r) => r.taskId), ranges.map((r) => r.from), ranges.map((r) => r.to)]))).rows;
}

export class PgTaskReader implements TaskReader {
  constructor(
    private readonly pipe: PgReadPipe,
    private readonly ready: Promise<unknown>,
  ) {}

  private async rows<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
    countQueries('reads');
    await this.ready;
    return (await this.pipe.query<T>(named(text, values))).rows;
  }

  async task(taskId: string): Promise<RawTaskRow | undefined> {
    return (await this.rows<RawTaskRow>(SQL.task, [taskId]))[0];
  }

  async events(taskId: string, afterSeq: number, types?: readonly string[]): Promise<RawEventRow[]> {
    const rows = await (types ? this.rows<RawEventRow>(SQL.eventsOfTypes, [taskId, afterSeq, withRefType(types)]) : this.rows<RawEventRow>(SQL.events, [taskId, afterSeq]));
    return this.expanded(rows, () => afterSeq);
  }

  /** Reference rows replaced by the chunks they name (event-refs.ts): one more statement when there are any. */
  private async expanded(rows: RawEventRow[], afterSeq: (taskId: string) => number): Promise<RawEventRow[]> {
    const ranges = refRanges(rows);
    if (!ranges.length) return rows;
    return expandRefs(rows, await readRowRanges((q) => this.pipe.query<RawEventRow>(q), ranges), afterSeq);
  }

  messages(taskId: string, limit?: number): Promise<RawMessageRow[]> {
    return limit === undefined ? this.rows(SQL.messages, [taskId]) : this.rows(SQL.lastMessages, [taskId, limit]);
  }

  artifacts(taskId: string): Promise<RawArtifactRow[]> {
    return this.rows(SQL.artifacts, [taskId]);
  }

  async artifactBytes(taskId: string): Promise<number> {
    const [own, referenced] = await Promise.all([SQL.artifactBytes, SQL.refBytes].map((sql) => this.rows<{ bytes: string | number }>(sql, [taskId])));
    return Number(own[0]?.bytes ?? 0) + Number(referenced[0]?.bytes ?? 0);
  }

  async taskParts(taskId: string, messageLimit: number | null): Promise<RawTaskParts | undefined> {
    const [row] = await this.rows<RawTaskRow & { _messages: RawMessageRow[]; _artifacts: RawArtifactRow[] }>(SQL.taskParts, [taskId, messageLimit]);
    if (!row) return undefined;
    const { _messages: messages, _artifacts: artifacts, ...task } = row;
    return { task, messages, artifacts };
  }

  async sentMessage(scope: SentMessageScope, messageId: string): Promise<RawSentMessage | undefined> {
    return (await this.rows<RawSentMessage>(SQL.sentMessage, [messageId, scope.direction, scope.agentSlug, scope.owner]))[0];
  }

  async openTaskBound(owner: string, atMost: number): Promise<number> {
    const [row] = await this.rows<{ n: number }>(SQL.openTaskBound, [owner, OPEN_STATES, atMost]);
    return Number(row?.n ?? 0);
  }

  async changes(cursors: readonly TaskCursor[], taskIds: readonly string[]): Promise<RawChanges> {
    countQueries('reads', 2);
    await this.ready;
    const [events, tasks] = await this.pipe.inOrder<RawEventRow | RawTaskRow>([
      named(SQL.eventsAfter, [cursors.map((c) => c.taskId), cursors.map((c) => c.afterSeq)]),
      named(SQL.tasks, [taskIds]),
    ]);
    const after = new Map(cursors.map((c) => [c.taskId, c.afterSeq]));
    return { events: await this.expanded(events.rows as RawEventRow[], (id) => after.get(id) ?? 0), tasks: tasks.rows as RawTaskRow[] };
  }
}
