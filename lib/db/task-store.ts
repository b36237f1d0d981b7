/**
 * The task store's two halves as the rest of lib/db sees them, one implementation per provider:
 * SQLite (sqlite/writer.ts, sqlite/reader.ts) and PostgreSQL (postgres/writer.ts, postgres/reader.ts).
 * Both keep the same semantics: each change (task row + events + messages) in one transaction,
 * a guarded append is a compare-and-set on the task row (the terminal claim), writes are group
 * committed, and a promise resolves only once its write has committed.
 */
import type { Artifact, Message, TaskState } from '../protocol/types';
import { textOf } from '../protocol/types';
import type { NewEvent, NewTask, TaskPatch } from './task-records';
import type { MaybeAsync } from '../util/maybe-async';
import { processSingleton } from '../process-singleton';

export const RESULT_TEXT_LIMIT = 8_000;

/** The search text of a task's result: its artifacts' text, bounded. */
export const resultTextOf = (artifacts: Artifact[]): string => artifacts.map((a) => textOf(a.parts)).join('\n').slice(0, RESULT_TEXT_LIMIT);

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

export interface TaskWriter {
  /** insertTask in the next group commit; resolves once committed. */
  queueInsertTask(task: NewTask, events: NewEvent[], messages: Message[]): Promise<WriteResult>;
  /** Guarded append in the next group commit; null (nothing written) when the guard failed. */
  queueAppend(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean): Promise<WriteResult | null>;
}

export interface RawEventRow {
  taskId: string;
  seq: number;
  type: string;
  state: string | null;
  payload: string;
  at: string;
}

export interface RawMessageRow {
  messageId: string;
  role: string;
  parts: string;
  metadata: string | null;
}

export interface RawArtifactRow {
  artifactId: string;
  name: string | null;
  description: string | null;
  parts: string;
  metadata: string | null;
}

/** A task row with what a snapshot of it needs: its recent messages and stored artifacts. */
export interface RawTaskParts {
  task: RawTaskRow;
  messages: RawMessageRow[];
  /** Stored (materialised) artifacts; only read for an ended task (a running one has none). */
  artifacts: RawArtifactRow[];
}

/** Hot-path reads. Times come back in the writer's text format (`sqliteTime`). */
export interface TaskReader {
  task(taskId: string): MaybeAsync<RawTaskRow | undefined>;
  events(taskId: string, afterSeq: number, types?: readonly string[]): MaybeAsync<RawEventRow[]>;
  /** Oldest first; `limit` keeps only the most recent. */
  messages(taskId: string, limit?: number): MaybeAsync<RawMessageRow[]>;
  artifacts(taskId: string): MaybeAsync<RawArtifactRow[]>;
  /** Bytes of the task's artifact events so far (the output limit's count after a restart). */
  artifactBytes(taskId: string): MaybeAsync<number>;
  /** The task with its `messageLimit` most recent messages (null: all) and stored artifacts, at once. */
  taskParts(taskId: string, messageLimit: number | null): MaybeAsync<RawTaskParts | undefined>;
  /**
   * The events of several tasks, each after its own seq (by task, then seq), then the rows of
   * `taskIds` (those that exist, in no particular order), read in that order so that each row is
   * at least as new as the events read for it: one round trip on PostgreSQL.
   */
  changes(cursors: readonly TaskCursor[], taskIds: readonly string[]): MaybeAsync<RawChanges>;
  /** The caller's newest user message with this id (a repeated send, decision 166): its task and when it was recorded. */
  sentMessage(scope: SentMessageScope, messageId: string): MaybeAsync<RawSentMessage | undefined>;
  /**
   * The open-task quota's question without a walk of the caller's tasks while the whole hub has
   * fewer than `atMost` open inbound tasks (the tallies, migration 0019): then the hub's number
   * (at least the caller's, below `atMost`); else the owner's inbound tasks that have not ended,
   * counted up to `atMost`. Below `atMost` exactly when
   * the caller's count is.
   */
  openTaskBound(owner: string, atMost: number): MaybeAsync<number>;
}

/** Whose tasks a repeated send is looked for in (a CallerScope's fields). */
export interface SentMessageScope {
  direction: 'inbound';
  agentSlug: string;
  owner: string;
}

export interface RawSentMessage {
  taskId: string;
  /** The writer's text time on SQLite; a Date or text on PostgreSQL. */
  createdAt: string | Date;
}

export interface RawChanges {
  events: RawEventRow[];
  tasks: RawTaskRow[];
}

export interface TaskCursor {
  taskId: string;
  afterSeq: number;
}

/** The writer's UTC text time (Prisma's SQLite DateTime format), so both providers sort and compare alike. */
export const sqliteTime = (d: Date): string => d.toISOString().replace('Z', '+00:00');

/** Events with their payloads serialised when queued (see SerializedEvent). */
export interface SerializedEvent {
  type: NewEvent['type'];
  state: string | null;
  value: unknown;
  payload: string;
}

/**
 * Artifact chunks' stored JSON, by chunk object (eventJson). One map per process, not per module
 * copy: Next.js bundles this module into several route bundles, and the output meter, the
 * writer and the owner's charge are reached through different copies, so a module-level map
 * made each of them serialise every chunk again (three JSON.stringify calls per streamed chunk).
 */
const chunkJson = processSingleton('chunkJson', () => new WeakMap<object, string>());

/**
 * An event's payload as stored (JSON), made once per artifact chunk: the output meter, the
 * owner's stored-bytes charge and the writer all need it, and a relay hands the chunk objects of
 * its peer task on to the caller's task unchanged, so the caller's copy is not serialised again
 * (docs/decisions.md 296). A chunk handed to the writer is not changed afterwards (see
 * serializeEvents), so its JSON stays its own. Other payloads are few and small: made each time.
 */
export function eventJson(event: Pick<NewEvent, 'type' | 'payload'>): string {
  const payload = event.payload ?? null;
  if (event.type !== 'artifact' || typeof payload !== 'object' || payload === null) return JSON.stringify(payload);
  let json = chunkJson.get(payload);
  if (json === undefined) chunkJson.set(payload, (json = JSON.stringify(payload)));
  return json;
}

/**
 * Queued writes serialise when they are queued, not when the batch runs, so a caller that reuses
 * or changes a payload object after queuing it cannot change what gets stored. `value` (the
 * object itself) feeds RunningArtifacts and the published event: payloads handed to the writer
 * are not to be changed (an artifact chunk's JSON is also remembered by object: eventJson).
 */
export const serializeEvents = (events: NewEvent[]): SerializedEvent[] =>
  events.map((e) => ({ type: e.type, state: e.state ?? null, value: e.payload ?? null, payload: eventJson(e) }));

export const isPlainAppend = (patch: TaskPatch, messages: Message[], materialize: boolean): boolean =>
  !materialize && messages.length === 0 && Object.values(patch).every((v) => v === undefined);

export const guardKey = (g: WriteGuard): string => `${g.onlyIfNotTerminal ? 1 : 0}${g.onlyIfNotDetached ? 1 : 0}:${g.onlyIfStateIn?.join(',') ?? ''}`;
