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
import { db, store, taskReader, taskWriter } from './client';
import type { RawArtifactRow, RawEventRow, RawMessageRow, RawTaskRow, TaskCursor, WriteResult } from './task-store';
import { isoTime, toTaskRecord } from './task-columns';
import type { Artifact, Message, TaskState } from '../protocol/types';
import type { NewEvent, NewTask, StoredEvent, TaskPatch, TaskRecord, EventType, Direction } from './task-records';
import { toStoredEvent } from './task-records';
import { inScope, type CallerScope, type TaskScope } from './task-scope';
import { HOUR_MS, tallyByState, tallyRows } from './task-tallies';
import { toStateCounts, type StateCountRow, type StateCounts } from './state-counts';
import type { TaskTextSearch } from './store';
import { agentSides, onlyOpenDetached } from './list-filter';

/** What a write committed: the task row as it now is, and the events it appended. */
export interface CommittedChange {
  task: TaskRecord;
  events: StoredEvent[];
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

/** Merged appends (a stream's chunks) share one written row: map it to a record once. */
const recordsByRow = new WeakMap<RawTaskRow, TaskRecord>();

/** A writer's result as the change the engine publishes (also for outbox planners, change-outbox.ts). */
export function toChange(taskId: string, written: WriteResult): CommittedChange {
  let task = recordsByRow.get(written.row);
  if (!task) recordsByRow.set(written.row, (task = toTaskRecord(written.row)));
  // The events of one write share their time: converted once, not per chunk of a stream.
  let raw: unknown;
  let at = '';
  return {
    task,
    events: written.events.map((e) => {
      if (e.at !== raw) at = isoTime((raw = e.at))!;
      return toStoredEvent(taskId, { seq: e.seq, type: e.type, state: e.state, at }, publishedPayload(e));
    }),
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
// writer's connection rather than Prisma (sqlite/reader.ts says why).

export async function findTask(taskId: string): Promise<TaskRecord | null> {
  const row = await taskReader().task(taskId);
  return row ? toTaskRecord(row) : null;
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
  // A hot-path read: every send asks it (through Prisma it cost ~0.15 ms of CPU per send).
  const row = await taskReader().sentMessage(scope, messageId);
  if (!row || new Date(row.createdAt).getTime() < since.getTime()) return null;
  return findTaskInScope(row.taskId, scope);
}

const rawToStoredEvent = (r: RawEventRow): StoredEvent => toStoredEvent(r.taskId, { ...r, at: isoTime(r.at)! }, JSON.parse(r.payload));

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
  return { events: raw.events.map(rawToStoredEvent), tasks: raw.tasks.map(toTaskRecord) };
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
  return { task: toTaskRecord(parts.task), history: parts.messages.map(toMessage(taskId)), storedArtifacts: parts.artifacts.map(toArtifact) };
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
  /** Not this served agent's tasks (the agent filter's peer side when the sides are added up: list-filter.ts). */
  notAgentSlug?: string;
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
  if (f.notAgentSlug) and.push({ OR: [{ agentSlug: null }, { agentSlug: { not: f.notAgentSlug } }] });
  if (f.owner) and.push({ owner: f.owner });
  if (f.contextId) and.push({ contextId: f.contextId });
  if (f.detached !== undefined) and.push({ detached: f.detached });
  if (onlyOpenDetached(f)) and.push({ endedAt: null });
  if (f.since) and.push({ createdAt: { gte: f.since } });
  if (f.until) and.push({ createdAt: { lte: f.until } });
  if (f.search) {
    // Text only: statusMessage is stored JSON, where "role" or "kind" would match every task.
    // Ignoring ASCII case on both stores, `%`, `_` and `\` matched as themselves (Store.textContains).
    const contains = store().textContains(f.search);
    and.push({ OR: [{ requestText: contains }, { resultText: contains }] });
  }
  return and.length ? { AND: and } : {};
}

/** Newest first, keyset-paged on (createdAt, id) so deep pages stay fast. */
export async function listTasks(f: TaskListFilter): Promise<{ tasks: TaskRecord[]; nextCursor: { createdAt: string; id: string } | null }> {
  // A store's own text search takes the agent filter whole: it splits what it walks in order
  // itself, and asks its text index once, not once per side (sqlite/task-search.ts).
  if (!f.agentOrPeer || textSearchFor(f)) return toPage(f, await newestTasks(f));
  // Agent or peer: an OR no index orders, so each side walks its own index (agentSlug or
  // peerName, then createdAt) for a page, and the two pages merge. A rare agent then costs a
  // page, not a walk through every task (bench/query-plans.ts).
  const sides = await Promise.all(agentSides(f).map(newestTasks));
  const merged = [...new Map(sides.flat().map((task) => [task.id, task])).values()];
  merged.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1));
  return toPage(f, merged.slice(0, f.limit + 1));
}

/** Up to `limit + 1` tasks matching `f`, newest first. */
async function newestTasks(f: TaskListFilter): Promise<TaskRecord[]> {
  const search = textSearchFor(f);
  if (search) return (await search.by.rows({ ...f, search: search.text })).map(toTaskRecord);
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

/** The store's own text search, when it has one and `f` searches (Store.textSearch). */
function textSearchFor(f: Pick<TaskListFilter, 'search'>): { by: TaskTextSearch; text: string } | null {
  const by = store().textSearch;
  return f.search && by ? { by, text: f.search } : null;
}

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
  const search = textSearchFor(f);
  if (search) return Object.values(await search.by.stateCounts({ ...f, search: search.text })).reduce((sum, c) => sum + c.total, 0);
  return db().task.count({ where: listWhere({ ...f, limit: 0 }) });
}

type CountFilter = Omit<TaskListFilter, 'limit' | 'cursor' | 'states'>;

/** Later than any task's createdAt, and ordered as a time on both stores (SQLite compares the text). */
const RANGE_END = new Date('9999-12-31T23:59:59.999Z');

/** Only these filters set (or none): the tallies can answer. */
const onlyFilters = (f: CountFilter, keys: readonly (keyof CountFilter)[]): boolean =>
  Object.entries(f).every(([key, value]) => value === undefined || (keys as readonly string[]).includes(key));

/**
 * Tasks per state, and how many of them detached, for the list's filter chips (every filter but
 * the state one). From the tallies when they can answer, else one grouped count of the tasks.
 */
export async function countTasksByState(f: CountFilter): Promise<StateCounts> {
  if (onlyFilters(f, ['direction', 'agentOrPeer'])) return tallyByState({ direction: f.direction, agentOrPeer: f.agentOrPeer });
  if (f.since && onlyFilters(f, ['direction', 'agentOrPeer', 'since', 'until'])) return toStateCounts(await countByHours({ ...f, since: f.since }));
  const search = textSearchFor(f);
  if (search) return search.by.stateCounts({ ...f, search: search.text });
  return toStateCounts(await countFromIndex(f));
}

/**
 * A time range's counts: its whole hours from the hourly tallies (migration 0021), the tasks of
 * its partial first and last hours counted from the index. A 7-day count at a million tasks a
 * month read 230,000 index entries; it now reads 168 hours of tally rows and an hour of tasks.
 */
async function countByHours(f: CountFilter & { since: Date }): Promise<StateCountRow[]> {
  const from = Math.ceil(f.since.getTime() / HOUR_MS);
  // `until` is inclusive: the hour it falls in is whole only if it ends at until + 1 ms.
  const to = f.until ? Math.floor((f.until.getTime() + 1) / HOUR_MS) : undefined;
  if (to !== undefined && to <= from) return countFromIndex(f);
  const parts: Promise<StateCountRow[]>[] = [tallyRows({ direction: f.direction, agentOrPeer: f.agentOrPeer, hours: { from, to } })];
  if (f.since.getTime() < from * HOUR_MS) parts.push(countFromIndex({ ...f, until: new Date(from * HOUR_MS - 1) }));
  if (f.until && to !== undefined && f.until.getTime() >= to * HOUR_MS) parts.push(countFromIndex({ ...f, since: new Date(to * HOUR_MS) }));
  return (await Promise.all(parts)).flat();
}

/**
 * One grouped count per side of the agent filter, added up (the peer side leaves out what the
 * agent side counted): each reads its covering index over the range alone (migration 0020),
 * where the OR read every task in the range.
 */
async function countFromIndex(f: CountFilter): Promise<StateCountRow[]> {
  // An open-ended range gets the far end too: SQLite (no statistics) reads a one-sided range as a
  // quarter of the table and walked the whole state index for its order instead; a two-sided one
  // it reads as narrow and counts from the covering createdAt index (bench/query-plans.ts).
  const bounded = f.since && !f.until ? { ...f, until: RANGE_END } : f;
  const sides = await Promise.all(
    agentSides(bounded, true).map((side) => db().task.groupBy({ by: ['state', 'detached'], where: listWhere({ ...side, limit: 0 }), _count: { _all: true } })),
  );
  return sides.flat().map((g) => ({ state: g.state, detached: g.detached, n: g._count._all }));
}
