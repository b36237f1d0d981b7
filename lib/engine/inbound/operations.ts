/**
 * Inbound A2A operations on our served agents, protocol-version neutral (internal shapes in,
 * internal shapes out). lib/server translates the wire; this module owns the task lifecycle:
 * create or continue, run the turn in the background, observe within the response window,
 * detach at its end. Cancel is lib/engine/cancel.ts (both directions).
 *
 * Every operation takes the caller's scope (lib/db/task-scope.ts): a task of another owner or
 * agent, or an outbound one, reads exactly as a task that does not exist.
 */
import { provesParent } from '../../auth/parent-proof';
import type { ServedAgent } from '../../agent-runner';
import { createTaskRecord, recordEvents } from '../core/task-writer';
import { startTurn } from './run-turn';
import { committedThrough, observeTaskBatches, type ObservationEnd } from '../core/observe';
import { detachTask, detachGuidance, markReattached, wantsPartialArtifacts, type DetachReason } from './detach';
import { buildTask, loadTask } from '../core/snapshot';
import { toStreamEvent, type StreamEnd } from './stream-events';
import { agentText } from '../core/messages';
import { directReplyIn } from './direct-reply';
import { findTask, findTaskWithSentMessage, listEvents, listMessages, listTasksInScope } from '../../db/task-repo';
import { newId } from '../../db/ids';
import { isContextTaken, type StoredEvent, type TaskRecord } from '../../db/task-records';
import type { CallerScope } from '../../db/task-scope';
import { A2AError } from '../../protocol/errors';
import { requireTaskInScope } from '../core/scoped-task';
import type { Message, StreamEvent, Task } from '../../protocol/types';
import { isTerminalState, isTurnEndState, textOf } from '../../protocol/types';
import { timingFor } from './timing';
import { getSettings } from '../../config/settings';
import { appPart } from '../../process-singleton';
import { parentFromMetadata, traceFromMetadata, wantsChildren, withChildrenMetadata, type TraceContext } from '../../protocol/trace-context';
import { listChildTasks, type ChildTask } from '../../db/task-graph';
import { beginTaskSpan } from '../../tracing/spans';
import { errorMessage } from '../../log';
import type { ProtocolVersion } from '../../protocol/types';

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

export { timingFor } from './timing';

const REQUEST_TEXT_LIMIT = 2_000;

/** The task a send works on, and whether the send repeated one already taken (nothing started). */
interface Begun extends BegunTurn {
  repeated: boolean;
}

/** Sends being begun in this process, by caller, agent and messageId: a concurrent repeat waits for the first. */
const beginning = () => appPart('sendsBeginning', () => new Map<string, Promise<Begun>>());

/**
 * Idempotent sends (decision 166): a message whose id this caller already sent to this agent
 * within SWITCHBOARD_SEND_DEDUP_WINDOW (a client retrying after a timeout) starts nothing and
 * answers with the task the first one created or continued, never a second task.
 */
async function beginSend(req: SendRequest): Promise<Begun> {
  const key = `${req.scope.agentSlug}\n${req.scope.owner}\n${req.message.messageId}`;
  const inFlight = beginning();
  const earlier = inFlight.get(key);
  if (earlier) await earlier.catch(() => undefined);
  const begun = (async (): Promise<Begun> => {
    const since = new Date(Date.now() - getSettings().sendDedupWindowMs);
    const sent = await findTaskWithSentMessage(req.scope, req.message.messageId, since);
    return sent ? { record: sent, repeated: true, continues: true } : { ...(await beginTurn(req)), repeated: false };
  })();
  inFlight.set(key, begun);
  try {
    return await begun;
  } finally {
    if (inFlight.get(key) === begun) inFlight.delete(key);
  }
}

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
 * A follow-up that names only its context (Hermes cannot send a taskId) answers the
 * question when exactly one of the caller's tasks at this agent in that context asks for input;
 * with none or several it starts a new task, as before. An explicit taskId always wins.
 */
async function onlyTaskAskingInContext(scope: CallerScope, contextId: string): Promise<string | null> {
  const { tasks } = await listTasksInScope(scope, { contextId, states: ['input-required'], limit: 2 });
  return tasks.length === 1 ? tasks[0].id : null;
}

async function createTask(req: SendRequest, contextId: string, joinsContext: boolean): Promise<TaskRecord> {
  const { message, agent, scope } = req;
  // Before the task exists (it may read): work the first turn can write in the task's commit.
  const first = (await agent.runner.prepareFirstTurn?.({ message, owner: scope.owner, freshContext: !joinsContext })) ?? null;
  const taskId = newId();
  const stored: Message = { ...message, taskId, contextId };
  const parent = parentFromMetadata(message.metadata);
  const traceContext = beginTaskSpan({ taskId, contextId, direction: 'inbound', target: agent.slug, parent: req.trace ?? traceFromMetadata(message.metadata) });
  const creating = createTaskRecord(
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
      // Only a link this hub made is linked; a caller-named parent stays a claim (parent-proof.ts).
      parentTaskId: parent && provesParent(parent.taskId, parent.proof) ? parent.taskId : undefined,
    },
    [
      { type: 'submitted', state: 'submitted', payload: { message: stored, peer: req.peer } },
      { type: 'status', state: 'working', payload: {} },
    ],
    [stored],
  );
  // Issued in the same event-loop turn as the task's write: one group commit for both.
  const begun = first?.begin({ id: taskId, contextId, traceContext: traceContext ?? null }) ?? null;
  const turn = () => startTurn({ agent, taskId, contextId, message: stored, history: [], peer: req.peer, owner: scope.owner, turnNumber: 1, ...(joinsContext ? {} : { freshContext: true }) });
  // A turn that touches nothing but its task starts with the task's write: one that ends at once
  // (echo) queues its end in this event-loop turn, and the two commit together (decision 425).
  // Not in a context the caller named (the insert may fail and be retried with a fresh one), nor
  // with work that must exist before the turn (a relay's child, an inline push config).
  const early = agent.runner.touchesOnlyItsTask === true && !joinsContext && !begun && !req.onTaskCreated;
  if (early) turn();
  const change = await creating.catch(async (err: unknown) => {
    await begun?.abandon(`the caller's task was not created (${errorMessage(err)})`);
    throw err;
  });
  await begun?.start();
  await req.onTaskCreated?.(taskId);
  if (!early) turn();
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
    { onlyIfStateIn: [record.state], messages: [stored] },
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
  return (await startSend(req, mode))();
}

/**
 * A send in two steps: the task is created (or continued) now, so every refusal (params, scope,
 * state) is thrown before anything is answered; the returned function then waits for the answer.
 * The HTTP layer commits to a 200 only between the two (lib/server/held-response.ts).
 */
export async function startSend(req: SendRequest, mode: SendMode): Promise<() => Promise<Task | Message>> {
  const begun = await beginSend(req);
  if (begun.repeated) return () => answerRepeat(req, mode, begun.record);
  return () => answerSend(req, mode, begun);
}

/**
 * A repeated send: the task as it is, or (blocking, turn still running) as the turn leaves it;
 * a blocking repeat of a send the agent answered with a direct message gets that message again,
 * as the first call did (decision 241).
 */
async function answerRepeat(req: SendRequest, mode: SendMode, record: TaskRecord): Promise<Task | Message> {
  if (mode === 'blocking' && !isTurnEndState(record.state)) {
    const { windowMs } = timingFor(req.agent);
    const events = observeTaskBatches(record.id, { afterSeq: record.lastSeq, until: 'turn', windowMs, signal: req.signal });
    while (!(await events.next()).done);
  }
  const reply = mode === 'blocking' ? await directReplyOf(record) : null;
  return reply ?? (await loadTask(record.id, { historyLength: req.historyLength }))!;
}

/** The direct message a task's only turn was answered with, or null (the task is the answer). */
async function directReplyOf(record: TaskRecord): Promise<Message | null> {
  return directReplyIn(await listEvents(record.id, 0, ['status']), record.contextId);
}

async function answerSend(req: SendRequest, mode: SendMode, { record, continues }: BegunTurn): Promise<Task | Message> {
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
  const { record, repeated, continues } = await beginSend(req);
  const { windowMs, graceMs } = timingFor(req.agent);
  const snapshot = await buildTask(record, { historyLength: req.historyLength });
  if (repeated) {
    // The stream the first send opened may be gone: the task, then its turn's rest, if any;
    // a send answered with a direct message is answered with it again (decision 241).
    const reply = isTurnEndState(record.state) ? await directReplyOf(record) : null;
    if (reply) {
      yield [reply];
      return;
    }
    yield [snapshot];
    if (!isTurnEndState(record.state)) yield* followTurn(record, { windowMs, graceMs, signal: req.signal, detachOnLeave: true });
    return;
  }
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
  /** Where the stream ends: a send's at the turn's end, a subscription's at a terminal state. */
  endsAt?: StreamEnd;
  /** The task snapshot not sent yet: it precedes the first batch, unless that is a direct reply. */
  held?: Task;
}

function toStreamBatch(events: StoredEvent[], contextId: string, endsAt: StreamEnd = 'turn'): StreamBatch {
  const out: StreamBatch = [];
  for (const event of events) {
    const streamed = toStreamEvent(event, contextId, endsAt);
    if (streamed) out.push(streamed);
  }
  return out;
}

async function* followTurn(record: TaskRecord, opts: FollowOptions): AsyncGenerator<StreamBatch> {
  const endsAt = opts.endsAt ?? 'turn';
  const events = observeTaskBatches(record.id, { afterSeq: record.lastSeq, until: endsAt, windowMs: opts.windowMs, signal: opts.signal });
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
      const out: StreamBatch = [...(held ? [held] : []), ...toStreamBatch(step.value, record.contextId, endsAt)];
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
  const endsAt = opts.endsAt ?? 'turn';
  const owed = await committedThrough(record.id, afterSeq, throughSeq, endsAt);
  const out: StreamBatch = [...(held ? [held] : []), ...toStreamBatch(owed.events, record.contextId, endsAt)];
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

/** What an A2A caller sees of a child: its state, not the hub's peer names or their URLs. */
const childForCaller = (child: ChildTask): ChildTask => ({ ...child, peerName: null, peerUrl: null });

/** tasks/get | GetTask; asked for them (`metadata.switchboard.children`), with the task's delegation children. */
/** A bounded long poll (the generation extension): answer once the task passes `after`, or after `ms`. */
export interface GenerationWait {
  after: number;
  ms: number;
  signal?: AbortSignal;
}

/** Waits until the task has an event after `wait.after` (or is terminal), at most `wait.ms`. */
async function waitForGeneration(record: TaskRecord, wait: GenerationWait): Promise<TaskRecord> {
  if (wait.after > record.lastSeq) throw new A2AError('invalidParams', `generation ${wait.after} is ahead of task ${record.id}'s generation ${record.lastSeq}`);
  if (record.lastSeq > wait.after || isTerminalState(record.state)) return record;
  const events = observeTaskBatches(record.id, { afterSeq: wait.after, until: 'terminal', windowMs: wait.ms, signal: wait.signal });
  await events.next();
  await events.return('aborted');
  return (await findTask(record.id)) ?? record;
}

export async function getTask(taskId: string, scope: CallerScope, historyLength?: number, metadata?: Record<string, unknown>, wait?: GenerationWait): Promise<Task> {
  const found = await requireTaskInScope(taskId, scope);
  const task = await buildTask(wait ? await waitForGeneration(found, wait) : found, { historyLength });
  if (wantsChildren(metadata)) task.metadata = withChildrenMetadata(task.metadata, (await listChildTasks(task.id)).map(childForCaller));
  return task;
}

async function finalSnapshot(record: TaskRecord): Promise<StreamBatch> {
  const task = await buildTask(record);
  return [task, { kind: 'status-update', taskId: record.id, contextId: record.contextId, status: task.status, final: true }];
}

/**
 * tasks/resubscribe and SubscribeToTask: the snapshot, then every later event until the task is
 * terminal (v1.0 §3.1.6), across turns: a task waiting for input keeps the stream open, and its
 * answer's turn and completion come over it (docs/decisions.md 160: v0.3 alike, as the
 * @a2a-js/sdk 1.3.0 reference does). Not bounded by the response window, so an observer that
 * attached after a detach sees the result; the late-result grace bounds the task itself. On a
 * terminal task v0.3 gets the final snapshot (and a final status) and v1.0 gets -32004, as its
 * spec requires.
 */
export async function* resubscribe(taskId: string, scope: CallerScope, version: ProtocolVersion, signal?: AbortSignal, afterGeneration?: number): AsyncGenerator<StreamBatch> {
  // Scope first: a foreign subscriber must not write anything (no `reattached` event).
  const record = await requireTaskInScope(taskId, scope);
  if (afterGeneration !== undefined && afterGeneration > record.lastSeq) {
    throw new A2AError('invalidParams', `generation ${afterGeneration} is ahead of task ${taskId}'s generation ${record.lastSeq}`);
  }
  if (isTerminalState(record.state)) {
    if (version === '1.0') throw new A2AError('unsupportedOperation', `task ${taskId} is already ${record.state}`);
    yield await finalSnapshot(record);
    return;
  }
  if (record.detached) await markReattached(taskId, version === '1.0' ? 'SubscribeToTask' : 'tasks/resubscribe');
  const fresh = (await findTask(taskId))!;
  // Resuming (the generation extension): the log holds every event of a task still running, so
  // the events after the caller's generation follow with no snapshot, no gap and no duplicate.
  if (afterGeneration !== undefined) {
    yield []; // commits the response at once, whether or not anything is new yet
    yield* followTurn({ ...fresh, lastSeq: afterGeneration }, { graceMs: 0, signal, detachOnLeave: false, endsAt: 'terminal' });
    return;
  }
  yield [await buildTask(fresh)];
  yield* followTurn(fresh, { graceMs: 0, signal, detachOnLeave: false, endsAt: 'terminal' });
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Sends being begun, per idempotency key. */
    sendsBeginning: Map<string, Promise<Begun>>;
  }
}
