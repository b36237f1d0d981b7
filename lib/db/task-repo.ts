/**
 * Every query on tasks, their event log, messages and artifacts.
 *
 * Invariants:
 * - TaskEvent is append-only; seq is allocated from Task.lastSeq inside the same transaction
 *   that changes the task row, so seq is gapless and monotonic per task.
 * - A guarded append (`onlyIfStateIn` / `onlyIfNotTerminal`) is a compare-and-set on the task
 *   row: when the guard fails nothing is written and null is returned. claimTerminal in
 *   lib/engine is built on this.
 */
import { currentStore, db, taskReader, taskWriter } from './client';
import type { RawArtifactRow, RawEventRow, RawMessageRow, RawTaskRow, TaskCursor, WriteResult } from './task-store';
import { fromJson } from './json';
import type { Artifact, Message, TaskState } from '../protocol/types';
import type { NewEvent, NewTask, StoredEvent, TaskPatch, TaskRecord, EventType, Direction } from './task-records';
import { toStoredEvent } from './task-records';
import { inScope, type CallerScope, type TaskScope } from './task-scope';
import { searchStateCounts, searchTaskRows, trigramQuery } from './task-search';
import { tallyByState, toStateCounts, type StateCounts } from './task-tallies';

/** What a write committed: the task row as it now is, and the events it appended. */
export interface CommittedChange {
  task: TaskRecord;
  events: StoredEvent[];
}

type TaskRow = NonNullable<Awaited<ReturnType<ReturnType<typeof db>['task']['findUnique']>>>;

function toTaskRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    contextId: row.contextId,
    direction: row.direction as Direction,
    agentSlug: row.agentSlug,
    peerName: row.peerName,
    peerUrl: row.peerUrl,
    remoteTaskId: row.remoteTaskId,
    owner: row.owner,
    ownerName: row.ownerName,
    state: row.state as TaskState,
    statusMessage: fromJson(row.statusMessage),
    requestText: row.requestText,
    resultText: row.resultText,
    detached: row.detached,
    detachedAt: row.detachedAt?.toISOString() ?? null,
    endReason: row.endReason,
    lastSeq: row.lastSeq,
    metadata: fromJson(row.metadata),
    follow: fromJson(row.follow),
    traceContext: fromJson(row.traceContext),
    parentTaskId: row.parentTaskId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

export interface AppendOptions {
  patch?: TaskPatch;
  /** Compare-and-set: only append if the task is in one of these states. */
  onlyIfStateIn?: readonly TaskState[];
  /** Compare-and-set: only append if the task is not terminal (the terminal claim). */
  onlyIfNotTerminal?: boolean;
  /** Compare-and-set: only append if the task has not detached yet (one detach event). */
  onlyIfNotDetached?: boolean;
  /** Messages to add to the task history in the same transaction. */
  messages?: Message[];
  /**
   * Materialise the accumulated artifacts (from the artifact events) in the same transaction,
   * and store a bounded text of the result for search. Used by the terminal claim.
   */
  materializeArtifacts?: boolean;
}



/** Creates a task with its first events and messages, atomically. */
export async function insertTask(task: NewTask, events: NewEvent[], messages: Message[] = []): Promise<CommittedChange> {
  return toChange(task.id, await taskWriter().queueInsertTask(task, events, messages));
}

/**
 * Appends events (and optionally patches the row) in one transaction. Returns the committed
 * change, or null when a guard was given and did not hold (nothing written).
 */
export async function appendEvents(taskId: string, events: NewEvent[], opts: AppendOptions = {}): Promise<CommittedChange | null> {
  const written = await taskWriter().queueAppend(
    taskId,
    events,
    opts.patch ?? {},
    { onlyIfStateIn: opts.onlyIfStateIn, onlyIfNotTerminal: opts.onlyIfNotTerminal, onlyIfNotDetached: opts.onlyIfNotDetached },
    opts.messages ?? [],
    opts.materializeArtifacts ?? false,
  );
  return written ? toChange(taskId, written) : null;
}

/** SQLite text time (or a Date) → ISO. The writer's own format (sqliteTime) converts without a Date parse. */
const WRITER_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const isoFromSqlite = (v: unknown): string | null => {
  if (v instanceof Date) return v.toISOString(); // through Prisma's raw queries (task-search.ts)
  if (typeof v !== 'string') return null;
  return WRITER_TIME.test(v) ? `${v.slice(0, 23)}Z` : new Date(v).toISOString();
};

function rawToTaskRecord(r: RawTaskRow): TaskRecord {
  return {
    id: r.id as string,
    contextId: r.contextId as string,
    direction: r.direction as Direction,
    agentSlug: (r.agentSlug as string | null) ?? null,
    peerName: (r.peerName as string | null) ?? null,
    peerUrl: (r.peerUrl as string | null) ?? null,
    remoteTaskId: (r.remoteTaskId as string | null) ?? null,
    owner: (r.owner as string | null) ?? null,
    ownerName: (r.ownerName as string | null) ?? null,
    state: r.state as TaskState,
    statusMessage: fromJson(r.statusMessage as string | null),
    requestText: r.requestText as string,
    resultText: r.resultText as string,
    detached: r.detached === 1 || r.detached === true,
    detachedAt: isoFromSqlite(r.detachedAt),
    endReason: (r.endReason as string | null) ?? null,
    lastSeq: r.lastSeq as number,
    metadata: fromJson(r.metadata as string | null),
    follow: fromJson(r.follow as string | null),
    traceContext: fromJson(r.traceContext as string | null),
    parentTaskId: (r.parentTaskId as string | null) ?? null,
    createdAt: isoFromSqlite(r.createdAt)!,
    updatedAt: isoFromSqlite(r.updatedAt)!,
    endedAt: isoFromSqlite(r.endedAt),
  };
}

/** Merged appends (a stream's chunks) share one written row: map it to a record once. */
const recordsByRow = new WeakMap<RawTaskRow, TaskRecord>();

/** A writer's result as the change the engine publishes (also for outbox planners, change-outbox.ts). */
export function toChange(taskId: string, written: WriteResult): CommittedChange {
  let task = recordsByRow.get(written.row);
  if (!task) recordsByRow.set(written.row, (task = rawToTaskRecord(written.row)));
  return {
    task,
    events: written.events.map((e) => toStoredEvent(taskId, { ...e, at: isoFromSqlite(e.at)! }, publishedPayload(e))),
  };
}

/**
 * What subscribers get as an event's payload: a copy parsed from the stored JSON, so it is
 * exactly what a later reader of the log gets. Artifact chunks (protocol data, JSON by
 * construction, and the bulk of a stream) are passed on as they were written instead: parsing
 * 2,000 chunks back cost ~2 ms per stream (bench scenario 3).
 */
function publishedPayload(e: WriteResult['events'][number]): unknown {
  return e.type === 'artifact' ? e.value : JSON.parse(e.payload);
}

// The four reads below are on every send, stream and subscription: prepared statements on the
// writer's connection rather than Prisma (sqlite-reader.ts says why).

export async function findTask(taskId: string): Promise<TaskRecord | null> {
  const row = await taskReader().task(taskId);
  return row ? rawToTaskRecord(row) : null;
}

/** The task if `scope` may see it; a task outside the scope is indistinguishable from none. */
export async function findTaskInScope(taskId: string, scope: TaskScope): Promise<TaskRecord | null> {
  const record = await findTask(taskId);
  return record && inScope(record, scope) ? record : null;
}

/**
 * The caller's task that already holds a user message with this id, recorded at or after
 * `since`: a repeated send (a client retrying after a timeout) answers with it (decision 166).
 */
export async function findTaskWithSentMessage(scope: CallerScope, messageId: string, since: Date): Promise<TaskRecord | null> {
  const row = await db().message.findFirst({
    where: { messageId, role: 'user', task: { direction: scope.direction, agentSlug: scope.agentSlug, owner: scope.owner } },
    orderBy: { id: 'desc' },
    select: { taskId: true, createdAt: true },
  });
  if (!row || row.createdAt.getTime() < since.getTime()) return null;
  return findTaskInScope(row.taskId, scope);
}

const rawToStoredEvent = (r: RawEventRow): StoredEvent => toStoredEvent(r.taskId, { ...r, at: isoFromSqlite(r.at)! }, JSON.parse(r.payload));

export async function listEvents(taskId: string, afterSeq = 0, types?: EventType[]): Promise<StoredEvent[]> {
  return (await taskReader().events(taskId, afterSeq, types)).map(rawToStoredEvent);
}

/**
 * The events of several tasks, each after its own seq (by task, then seq), and then the rows of
 * `taskIds` (those that exist): each row is at least as new as the events read for it.
 */
export async function readChanges(cursors: readonly TaskCursor[], taskIds: readonly string[]): Promise<{ events: StoredEvent[]; tasks: TaskRecord[] }> {
  if (!cursors.length && !taskIds.length) return { events: [], tasks: [] };
  const raw = await taskReader().changes(cursors, taskIds);
  return { events: raw.events.map(rawToStoredEvent), tasks: raw.tasks.map(rawToTaskRecord) };
}

const toMessage = (taskId: string) => (r: RawMessageRow): Message => ({
  kind: 'message' as const,
  messageId: r.messageId,
  role: r.role as Message['role'],
  parts: JSON.parse(r.parts),
  taskId,
  ...(r.metadata ? { metadata: JSON.parse(r.metadata) } : {}),
});

const toArtifact = (r: RawArtifactRow): Artifact => ({
  artifactId: r.artifactId,
  parts: JSON.parse(r.parts),
  ...(r.name ? { name: r.name } : {}),
  ...(r.description ? { description: r.description } : {}),
  ...(r.metadata ? { metadata: JSON.parse(r.metadata) } : {}),
});

/** History, oldest first; `limit` keeps only the most recent messages. */
export async function listMessages(taskId: string, limit?: number): Promise<Message[]> {
  return (await taskReader().messages(taskId, limit)).map(toMessage(taskId));
}

export async function listStoredArtifacts(taskId: string): Promise<Artifact[]> {
  return (await taskReader().artifacts(taskId)).map(toArtifact);
}

/** A task with its history (`historyLength` most recent; undefined: all) and stored artifacts, read together. */
export async function findTaskWithParts(taskId: string, historyLength?: number): Promise<{ task: TaskRecord; history: Message[]; storedArtifacts: Artifact[] } | null> {
  const parts = await taskReader().taskParts(taskId, historyLength ?? null);
  if (!parts) return null;
  return { task: rawToTaskRecord(parts.task), history: parts.messages.map(toMessage(taskId)), storedArtifacts: parts.artifacts.map(toArtifact) };
}

export async function findTasksInStates(states: readonly TaskState[], direction?: Direction): Promise<TaskRecord[]> {
  const rows = await db().task.findMany({
    where: { state: { in: [...states] }, ...(direction ? { direction } : {}) },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(toTaskRecord);
}

/** Tasks changed at or after `since`, oldest change first (catch-up after a missed notification). */
export async function findTasksUpdatedSince(since: Date, limit: number): Promise<TaskRecord[]> {
  const rows = await db().task.findMany({ where: { updatedAt: { gte: since } }, orderBy: { updatedAt: 'asc' }, take: limit });
  return rows.map(toTaskRecord);
}

export interface TaskListFilter {
  states?: TaskState[];
  direction?: Direction;
  agentOrPeer?: string;
  /** Exact: one served agent's tasks (ListTasks). */
  agentSlug?: string;
  /** Exact: the tasks sent to one peer (one side of agentOrPeer). */
  peerName?: string;
  owner?: string;
  contextId?: string;
  detached?: boolean;
  since?: Date;
  until?: Date;
  search?: string;
  /** Opaque cursor: the last row of the previous page. */
  cursor?: { createdAt: string; id: string };
  limit: number;
}

function listWhere(f: TaskListFilter) {
  const and: object[] = [];
  if (f.states?.length) and.push({ state: { in: f.states } });
  if (f.direction) and.push({ direction: f.direction });
  if (f.agentOrPeer) and.push({ OR: [{ agentSlug: f.agentOrPeer }, { peerName: f.agentOrPeer }] });
  if (f.agentSlug) and.push({ agentSlug: f.agentSlug });
  if (f.peerName) and.push({ peerName: f.peerName });
  if (f.owner) and.push({ owner: f.owner });
  if (f.contextId) and.push({ contextId: f.contextId });
  if (f.detached !== undefined) and.push({ detached: f.detached });
  if (f.since) and.push({ createdAt: { gte: f.since } });
  if (f.until) and.push({ createdAt: { lte: f.until } });
  if (f.search) {
    // Text only: statusMessage is stored JSON, where "role" or "kind" would match every task.
    // PostgreSQL: Prisma's insensitive mode (ILIKE, as SQLite's LIKE ignores ASCII case), served
    // by the trigram indexes; `%`, `_` and `\` escaped: a search is text, not a pattern (its
    // LIKE escape is `\`). SQLite's searches go through task-search.ts and never reach here.
    const text = f.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    const contains = currentStore() === 'postgresql' ? { contains: text, mode: 'insensitive' } : { contains: f.search };
    and.push({ OR: [{ requestText: contains }, { resultText: contains }] });
  }
  return and.length ? { AND: and } : {};
}

/** Newest first, keyset-paged on (createdAt, id) so deep pages stay fast. */
export async function listTasks(f: TaskListFilter): Promise<{ tasks: TaskRecord[]; nextCursor: { createdAt: string; id: string } | null }> {
  if (!f.agentOrPeer) return toPage(f, await newestTasks(f));
  // Agent or peer: an OR no index orders, so each side walks its own index (agentSlug or
  // peerName, then createdAt) for a page, and the two pages merge. A rare agent then costs a
  // page, not a walk through every task (bench/query-plans.ts).
  const { agentOrPeer: name, ...rest } = f;
  const sides = await Promise.all([
    rest.agentSlug === undefined || rest.agentSlug === name ? newestTasks({ ...rest, agentSlug: name }) : [],
    newestTasks({ ...rest, peerName: name }),
  ]);
  const merged = [...new Map(sides.flat().map((task) => [task.id, task])).values()];
  merged.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1));
  return toPage(f, merged.slice(0, f.limit + 1));
}

/** Up to `limit + 1` tasks matching `f`, newest first. */
async function newestTasks(f: TaskListFilter): Promise<TaskRecord[]> {
  if (sqliteSearch(f)) return (await searchTaskRows(f, trigramQuery(f.search))).map(rawToTaskRecord);
  const cursorWhere = f.cursor
    ? {
        OR: [
          { createdAt: { lt: new Date(f.cursor.createdAt) } },
          { createdAt: new Date(f.cursor.createdAt), id: { lt: f.cursor.id } },
        ],
      }
    : {};
  const rows = await db().task.findMany({ where: { AND: [listWhere(f), cursorWhere] }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: f.limit + 1 });
  return rows.map(toTaskRecord);
}

/** `limit + 1` rows → the page and, when there are more, the cursor after its last row. */
function toPage(f: TaskListFilter, rows: TaskRecord[]): { tasks: TaskRecord[]; nextCursor: { createdAt: string; id: string } | null } {
  const page = rows.slice(0, f.limit);
  const last = page[page.length - 1];
  return { tasks: page, nextCursor: rows.length > f.limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** A text search on SQLite: task-search.ts's own SQL, through the trigram index. */
const sqliteSearch = (f: Pick<TaskListFilter, 'search'>): f is { search: string } => Boolean(f.search) && currentStore() === 'sqlite';

/** What a caller's list may filter on; the scope supplies direction, agent and owner. */
export type CallerListFilter = Omit<TaskListFilter, 'direction' | 'agentOrPeer' | 'agentSlug' | 'peerName' | 'owner'>;

const scopeFilter = (scope: CallerScope) => ({ direction: scope.direction, agentSlug: scope.agentSlug, owner: scope.owner });

/** ListTasks: one page of the caller's own inbound tasks at one agent. */
export function listTasksInScope(scope: CallerScope, f: CallerListFilter) {
  return listTasks({ ...f, ...scopeFilter(scope) });
}

export function countTasksInScope(scope: CallerScope, f: Omit<CallerListFilter, 'limit' | 'cursor'>): Promise<number> {
  return countTasks({ ...f, ...scopeFilter(scope) });
}

export async function countTasks(f: Omit<TaskListFilter, 'limit' | 'cursor'>): Promise<number> {
  if (sqliteSearch(f)) return Object.values(await searchStateCounts(f, trigramQuery(f.search))).reduce((sum, c) => sum + c.total, 0);
  return db().task.count({ where: listWhere({ ...f, limit: 0 }) });
}

type CountFilter = Omit<TaskListFilter, 'limit' | 'cursor' | 'states'>;

/** Only direction and agent-or-peer set: the tallies answer (task-tallies.ts). */
const tallyAnswers = (f: CountFilter): boolean =>
  Object.entries(f).every(([key, value]) => value === undefined || key === 'direction' || key === 'agentOrPeer');

/**
 * Tasks per state, and how many of them detached, for the list's filter chips (every filter but
 * the state one). From the tallies when they can answer, else one grouped count of the tasks.
 */
export async function countTasksByState(f: CountFilter): Promise<StateCounts> {
  if (tallyAnswers(f)) return tallyByState({ direction: f.direction, agentOrPeer: f.agentOrPeer });
  if (sqliteSearch(f)) return searchStateCounts(f, trigramQuery(f.search));
  const groups = await db().task.groupBy({ by: ['state', 'detached'], where: listWhere({ ...f, limit: 0 }), _count: { _all: true } });
  return toStateCounts(groups.map((g) => ({ state: g.state, detached: g.detached, n: g._count._all })));
}
