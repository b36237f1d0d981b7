/**
 * Inbound A2A operations on our served agents, protocol-version neutral (internal shapes in,
 * internal shapes out). lib/server translates the wire; this module owns the task lifecycle:
 * create or continue, run the turn in the background, observe within the response window,
 * detach at its end. Cancel is lib/engine/cancel.ts (both directions).
 *
 * Every operation takes the caller's scope (lib/db/task-scope.ts): a task of another owner or
 * agent, or an outbound one, reads exactly as a task that does not exist.
 */
import type { ServedAgent } from './agent';
import { createTaskRecord, recordEvents } from './task-writer';
import { startTurn } from './run-turn';
import { committedThrough, observeTaskBatches, type ObservationEnd } from './observe';
import { detachTask, detachGuidance, markReattached, wantsPartialArtifacts, type DetachReason } from './detach';
import { buildTask, loadTask } from './snapshot';
import { toStreamEvent } from './stream-events';
import { agentText } from './messages';
import { directReplyIn } from './direct-reply';
import { findTask, listMessages, listTasksInScope } from '../db/task-repo';
import { newId } from '../db/ids';
import { isContextTaken, type StoredEvent, type TaskRecord } from '../db/task-records';
import type { CallerScope } from '../db/task-scope';
import { A2AError } from '../protocol/errors';
import { requireTaskInScope } from './scoped-task';
import type { Message, StreamEvent, Task } from '../protocol/types';
import { isTerminalState, isTurnEndState, textOf } from '../protocol/types';
import { getSettings } from '../config/settings';
import { parentFromMetadata, traceFromMetadata, wantsChildren, withChildrenMetadata, type TraceContext } from '../protocol/trace-context';
import { listChildTasks } from '../db/task-graph';
import { beginTaskSpan } from '../tracing/spans';
import type { ProtocolVersion } from '../protocol/types';

export type SendMode = 'blocking' | 'non-blocking';

export interface SendRequest {
  agent: ServedAgent;
  message: Message;
  /** Who is calling: the task is created in (or must be found in) this scope. */
  scope: CallerScope;
  /** How the dashboard names the scope's owner; defaults to the owner id. */
  ownerName?: string;
  /** The caller's name (API key name, "anonymous", "self"), recorded with its messages. */
  peer: string;
  historyLength?: number;
  metadata?: Record<string, unknown>;
  /** Aborted when the HTTP caller goes away. */
  signal?: AbortSignal;
  /** The caller's trace context (headers); else the message's `metadata.switchboard.trace`. */
  trace?: TraceContext;
  /** Runs once the task exists, before its turn starts (e.g. registering an inline push config). */
  onTaskCreated?: (taskId: string) => Promise<unknown>;
}

export function timingFor(agent: ServedAgent) {
  const settings = getSettings();
  return {
    windowMs: agent.responseWindowMs ?? settings.responseWindowMs,
    graceMs: agent.lateResultGraceMs ?? settings.lateResultGraceMs,
  };
}

const REQUEST_TEXT_LIMIT = 2_000;

/** The turn's task, and whether it continues one (then a direct reply still answers with the task). */
interface BegunTurn {
  record: TaskRecord;
  continues: boolean;
}

/** Creates the task (or continues an input-required one) and starts its turn. */
async function beginTurn(req: SendRequest): Promise<BegunTurn> {
  if (req.scope.agentSlug !== req.agent.slug) throw new Error(`scope of agent ${req.scope.agentSlug} used at agent ${req.agent.slug}`);
  if (req.message.taskId) return { record: await continueTask(req, req.message.taskId), continues: true };
  const requested = req.message.contextId;
  const waiting = requested ? await onlyTaskAskingInContext(req.scope, requested) : null;
  if (waiting) return { record: await continueTask(req, waiting), continues: true };
  return { record: await newTask(req, requested), continues: false };
}

async function newTask(req: SendRequest, requested: string | undefined): Promise<TaskRecord> {
  try {
    return await createTask(req, requested ?? newId(), requested !== undefined);
  } catch (err) {
    // A context belongs to its owner and agent: anyone else who names it starts a fresh one
    // (docs/decisions.md), so they never reach its launcher session or its tasks.
    if (isContextTaken(err)) return createTask(req, newId(), false);
    throw err;
  }
}

/**
 * A follow-up that names only its context (Hermes cannot send a taskId, issue 22) answers the
 * question when exactly one of the caller's tasks at this agent in that context asks for input;
 * with none or several it starts a new task, as before. An explicit taskId always wins.
 */
async function onlyTaskAskingInContext(scope: CallerScope, contextId: string): Promise<string | null> {
  const { tasks } = await listTasksInScope(scope, { contextId, states: ['input-required'], limit: 2 });
  return tasks.length === 1 ? tasks[0].id : null;
}

async function createTask(req: SendRequest, contextId: string, joinsContext: boolean): Promise<TaskRecord> {
  const { message, agent, scope } = req;
  const taskId = newId();
  const stored: Message = { ...message, taskId, contextId };
  const parent = parentFromMetadata(message.metadata);
  const traceContext = beginTaskSpan({ taskId, contextId, direction: 'inbound', target: agent.slug, parent: req.trace ?? traceFromMetadata(message.metadata) });
  const change = await createTaskRecord(
    {
      id: taskId,
      contextId,
      joinsContext,
      direction: 'inbound',
      agentSlug: agent.slug,
      owner: scope.owner,
      ownerName: req.ownerName ?? scope.owner,
      state: 'working',
      requestText: textOf(message.parts).slice(0, REQUEST_TEXT_LIMIT),
      metadata: req.metadata,
      traceContext,
      parentTaskId: parent?.taskId,
    },
    [
      { type: 'submitted', state: 'submitted', payload: { message: stored, peer: req.peer } },
      { type: 'status', state: 'working', payload: {} },
    ],
    [stored],
  );
  await req.onTaskCreated?.(taskId);
  startTurn({ agent, taskId, contextId, message: stored, history: [], peer: req.peer, owner: scope.owner, turnNumber: 1 });
  return change.task;
}

async function continueTask(req: SendRequest, taskId: string): Promise<TaskRecord> {
  const record = await requireTaskInScope(taskId, req.scope);
  if (req.message.contextId && req.message.contextId !== record.contextId) {
    throw new A2AError('invalidParams', `message.contextId does not match task ${taskId}'s context ${record.contextId}`);
  }
  if (isTerminalState(record.state)) {
    throw new A2AError('unsupportedOperation', `task ${taskId} is ${record.state}; a terminal task cannot be continued`);
  }
  if (record.state !== 'input-required' && record.state !== 'auth-required') {
    throw new A2AError('unsupportedOperation', `task ${taskId} is ${record.state}; it accepts a new message only when it asks for input`);
  }
  const stored: Message = { ...req.message, taskId, contextId: record.contextId };
  const history = await listMessages(taskId);
  const change = await recordEvents(
    taskId,
    [
      { type: 'message', payload: { message: stored, peer: req.peer } },
      { type: 'status', state: 'working', payload: {} },
    ],
    { onlyIfStateIn: [record.state], messages: [stored], patch: { state: 'working', statusMessage: null } },
  );
  if (!change) throw new A2AError('unsupportedOperation', `task ${taskId} changed state; retry`);
  const turnNumber = history.filter((m) => m.role === 'user').length + 1;
  startTurn({ agent: req.agent, taskId, contextId: record.contextId, message: stored, history, peer: req.peer, owner: req.scope.owner, turnNumber });
  return change.task;
}

function detachReason(end: ObservationEnd): DetachReason {
  if (end === 'shutdown') return 'shutdown';
  return end === 'window' ? 'response window ended' : 'caller disconnected';
}

/** Ends that still owe an open stream the detach status: the window, and shutdown. */
const ANSWERED_ENDS: readonly ObservationEnd[] = ['window', 'shutdown'];

/**
 * message/send and SendMessage: wait for the turn's end, at most one response window. A turn
 * that created its task and ended with a direct message answers with that Message.
 */
export async function sendMessage(req: SendRequest, mode: SendMode): Promise<Task | Message> {
  const { record, continues } = await beginTurn(req);
  const { windowMs, graceMs } = timingFor(req.agent);
  if (mode === 'non-blocking') {
    await detachTask(record.id, record.contextId, { reason: 'non-blocking request', windowMs, graceMs });
  } else {
    const events = observeTaskBatches(record.id, { afterSeq: record.lastSeq, until: 'turn', windowMs, signal: req.signal });
    let reply: Message | null = null;
    let step = await events.next();
    while (!step.done) {
      reply ??= directReplyIn(step.value, record.contextId);
      step = await events.next();
    }
    if (step.value !== 'ended') {
      const detached = await detachTask(record.id, record.contextId, { reason: detachReason(step.value), windowMs, graceMs });
      // The answer is the task as of its detach: the instructions (later progress would replace
      // the status message in a fresh read), and no partial artifacts unless the caller asks:
      // a client that reads artifacts first must not take a first chunk for the result.
      const includeArtifacts = wantsPartialArtifacts(req.message.metadata);
      if (detached) return buildTask(detached.task, { historyLength: req.historyLength, includeArtifacts });
    } else if (reply && !continues) return reply;
  }
  return (await loadTask(record.id, { historyLength: req.historyLength }))!;
}

/**
 * What a stream hands over in one step: the events that committed together (a stream's chunks
 * arrive hundreds per group commit), so the SSE layer writes them with one write.
 */
export type StreamBatch = StreamEvent[];

/** message/stream and SendStreamingMessage: the task, then its events, within the window. */
export async function* streamMessage(req: SendRequest): AsyncGenerator<StreamBatch> {
  const { record, continues } = await beginTurn(req);
  const { windowMs, graceMs } = timingFor(req.agent);
  const snapshot = await buildTask(record, { historyLength: req.historyLength });
  // A new task whose agent may answer with a message: the task goes out with the turn's first
  // event, so a reply that comes first is the stream's only event (a Message, not a Task).
  const held = req.agent.runner.mayReplyWithMessage === true && !continues;
  if (!held) yield [snapshot];
  yield* followTurn(record, { windowMs, graceMs, signal: req.signal, detachOnLeave: true, held: held ? snapshot : undefined });
}

interface FollowOptions {
  windowMs?: number;
  graceMs: number;
  signal?: AbortSignal;
  detachOnLeave: boolean;
  /** The task snapshot not sent yet: it precedes the first batch, unless that is a direct reply. */
  held?: Task;
}

function toStreamBatch(events: StoredEvent[], contextId: string): StreamBatch {
  const out: StreamBatch = [];
  for (const event of events) {
    const streamed = toStreamEvent(event, contextId);
    if (streamed) out.push(streamed);
  }
  return out;
}

async function* followTurn(record: TaskRecord, opts: FollowOptions): AsyncGenerator<StreamBatch> {
  const events = observeTaskBatches(record.id, { afterSeq: record.lastSeq, until: 'turn', windowMs: opts.windowMs, signal: opts.signal });
  let end: ObservationEnd = 'aborted';
  let lastSeq = record.lastSeq;
  let held = opts.held;
  try {
    for (;;) {
      const step = await events.next();
      if (step.done) {
        end = step.value;
        break;
      }
      lastSeq = step.value[step.value.length - 1]?.seq ?? lastSeq;
      const reply = held ? directReplyIn(step.value, record.contextId) : null;
      if (reply) {
        yield [reply];
        end = 'ended';
        break;
      }
      const out: StreamBatch = [...(held ? [held] : []), ...toStreamBatch(step.value, record.contextId)];
      held = undefined;
      if (out.length) yield out;
    }
  } finally {
    // Reached on a normal end and when the consumer stops early (client disconnected).
    await events.return('aborted');
    if (end === 'aborted' && opts.detachOnLeave) {
      await detachTask(record.id, record.contextId, { reason: 'caller disconnected', windowMs: opts.windowMs ?? 0, graceMs: opts.graceMs });
    }
  }
  if (ANSWERED_ENDS.includes(end)) yield* answerWindowEnd(record, lastSeq, end, opts, held);
}

/**
 * The window (or shutdown) ended an open stream: detach, then hand over every event committed
 * up to and including the detach status, in seq order. Events that committed in the same
 * instant as the window's end are read from the log. If the turn ended first, the stream ends
 * with that end instead; a stream that does not own the detach (a resubscriber at shutdown)
 * gets the instructions as a status of its own.
 */
async function* answerWindowEnd(record: TaskRecord, afterSeq: number, end: ObservationEnd, opts: FollowOptions, held?: Task): AsyncGenerator<StreamBatch> {
  const reason = detachReason(end);
  const windowMs = opts.windowMs ?? 0;
  const change = opts.detachOnLeave ? await detachTask(record.id, record.contextId, { reason, windowMs, graceMs: opts.graceMs }) : null;
  const throughSeq = change?.task.lastSeq ?? (await findTask(record.id))?.lastSeq ?? afterSeq;
  const owed = await committedThrough(record.id, afterSeq, throughSeq, 'turn');
  const out: StreamBatch = [...(held ? [held] : []), ...toStreamBatch(owed.events, record.contextId)];
  const detachShown = change !== null && owed.events.some((e) => e.type === 'detached');
  if (!owed.ended && !detachShown) {
    const guidance = detachGuidance(record.id, reason, windowMs);
    out.push({
      kind: 'status-update',
      taskId: record.id,
      contextId: record.contextId,
      status: { state: 'working', timestamp: new Date().toISOString(), message: agentText(record.id, record.contextId, guidance.text, guidance.metadata) },
      final: false,
      metadata: guidance.metadata,
    });
  }
  if (out.length) yield out;
}

/** tasks/get | GetTask; asked for them (`metadata.switchboard.children`), with the task's delegation children. */
export async function getTask(taskId: string, scope: CallerScope, historyLength?: number, metadata?: Record<string, unknown>): Promise<Task> {
  const task = await buildTask(await requireTaskInScope(taskId, scope), { historyLength });
  if (wantsChildren(metadata)) task.metadata = withChildrenMetadata(task.metadata, await listChildTasks(task.id));
  return task;
}

async function finalSnapshot(record: TaskRecord): Promise<StreamBatch> {
  const task = await buildTask(record);
  return [task, { kind: 'status-update', taskId: record.id, contextId: record.contextId, status: task.status, final: true }];
}

/**
 * tasks/resubscribe and SubscribeToTask: the snapshot, then every later event until the end.
 * Not bounded by the response window, so an observer that attached after a detach sees the
 * result; the late-result grace bounds the task itself. On a terminal task v0.3 gets the final
 * snapshot (and a final status) and v1.0 gets -32004, as its spec requires; on an interrupted
 * one both get the snapshot and a final status, and the stream closes.
 */
export async function* resubscribe(taskId: string, scope: CallerScope, version: ProtocolVersion, signal?: AbortSignal): AsyncGenerator<StreamBatch> {
  // Scope first: a foreign subscriber must not write anything (no `reattached` event).
  const record = await requireTaskInScope(taskId, scope);
  if (isTerminalState(record.state) && version === '1.0') throw new A2AError('unsupportedOperation', `task ${taskId} is already ${record.state}`);
  // Terminal (v0.3) or interrupted (input-required, auth-required, both versions): the turn is
  // over, so the stream ends at once with the task and a final status.
  if (isTurnEndState(record.state)) {
    yield await finalSnapshot(record);
    return;
  }
  if (record.detached) await markReattached(taskId, version === '1.0' ? 'SubscribeToTask' : 'tasks/resubscribe');
  const fresh = (await findTask(taskId))!;
  yield [await buildTask(fresh)];
  yield* followTurn(fresh, { graceMs: 0, signal, detachOnLeave: false });
}
