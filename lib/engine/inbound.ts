/**
 * Inbound A2A operations on our served agents, protocol-version neutral (internal shapes in,
 * internal shapes out). lib/server translates the wire; this module owns the task lifecycle:
 * create or continue, run the turn in the background, observe within the response window,
 * detach at its end, cancel through the terminal claim.
 */
import type { ServedAgent } from './agent';
import { createTaskRecord, claimTerminal, recordEvents } from './task-writer';
import { startTurn } from './run-turn';
import { observeTaskBatches, type ObservationEnd } from './observe';
import { detachTask, detachGuidance, markReattached, type DetachReason } from './detach';
import { buildTask, loadTask } from './snapshot';
import { toStreamEvent } from './stream-events';
import { executions } from './executions';
import { agentText } from './messages';
import { directReplyIn } from './direct-reply';
import { findTask, listMessages } from '../db/task-repo';
import { newId } from '../db/ids';
import type { TaskRecord } from '../db/task-records';
import { A2AError } from '../protocol/errors';
import type { Message, StreamEvent, Task } from '../protocol/types';
import { isTerminalState, textOf } from '../protocol/types';
import { getSettings } from '../config/settings';

export type SendMode = 'blocking' | 'non-blocking';

export interface SendRequest {
  agent: ServedAgent;
  message: Message;
  peer: string;
  historyLength?: number;
  metadata?: Record<string, unknown>;
  /** Aborted when the HTTP caller goes away. */
  signal?: AbortSignal;
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

/** Creates the task (or continues an input-required one) and starts its turn. */
async function beginTurn(req: SendRequest): Promise<TaskRecord> {
  const { message, agent } = req;
  if (message.taskId) return continueTask(req, message.taskId);
  const taskId = newId();
  const contextId = message.contextId ?? newId();
  const stored: Message = { ...message, taskId, contextId };
  const change = await createTaskRecord(
    {
      id: taskId,
      contextId,
      direction: 'inbound',
      agentSlug: agent.slug,
      state: 'working',
      requestText: textOf(message.parts).slice(0, REQUEST_TEXT_LIMIT),
      metadata: req.metadata,
    },
    [
      { type: 'submitted', state: 'submitted', payload: { message: stored, peer: req.peer } },
      { type: 'status', state: 'working', payload: {} },
    ],
    [stored],
  );
  await req.onTaskCreated?.(taskId);
  startTurn({ agent, taskId, contextId, message: stored, history: [], peer: req.peer, turnNumber: 1 });
  return change.task;
}

async function continueTask(req: SendRequest, taskId: string): Promise<TaskRecord> {
  const record = await findTask(taskId);
  if (!record || record.direction !== 'inbound' || record.agentSlug !== req.agent.slug) {
    throw new A2AError('taskNotFound', `no task ${taskId} for agent ${req.agent.slug}`);
  }
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
    { onlyIfStateIn: [record.state], messages: [stored], patch: { state: 'working', statusMessage: null, detached: false } },
  );
  if (!change) throw new A2AError('unsupportedOperation', `task ${taskId} changed state; retry`);
  const turnNumber = history.filter((m) => m.role === 'user').length + 1;
  startTurn({ agent: req.agent, taskId, contextId: record.contextId, message: stored, history, peer: req.peer, turnNumber });
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
  const record = await beginTurn(req);
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
    if (step.value !== 'ended') await detachTask(record.id, record.contextId, { reason: detachReason(step.value), windowMs, graceMs });
    else if (reply && !req.message.taskId) return reply;
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
  const record = await beginTurn(req);
  const { windowMs, graceMs } = timingFor(req.agent);
  const snapshot = await buildTask(record, { historyLength: req.historyLength });
  // A new task whose agent may answer with a message: the task goes out with the turn's first
  // event, so a reply that comes first is the stream's only event (a Message, not a Task).
  const held = req.agent.runner.mayReplyWithMessage === true && !req.message.taskId;
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

async function* followTurn(record: TaskRecord, opts: FollowOptions): AsyncGenerator<StreamBatch> {
  const events = observeTaskBatches(record.id, { afterSeq: record.lastSeq, until: 'turn', windowMs: opts.windowMs, signal: opts.signal });
  let end: ObservationEnd = 'aborted';
  let held = opts.held;
  try {
    for (;;) {
      const step = await events.next();
      if (step.done) {
        end = step.value;
        break;
      }
      const reply = held ? directReplyIn(step.value, record.contextId) : null;
      if (reply) {
        yield [reply];
        end = 'ended';
        break;
      }
      const out: StreamBatch = held ? [held] : [];
      held = undefined;
      for (const event of step.value) {
        const streamed = toStreamEvent(event, record.contextId);
        if (streamed) out.push(streamed);
      }
      if (out.length) yield out;
    }
  } finally {
    // Reached on a normal end and when the consumer stops early (client disconnected).
    await events.return('aborted');
    if (end !== 'ended' && opts.detachOnLeave) {
      await detachTask(record.id, record.contextId, {
        reason: detachReason(end),
        windowMs: opts.windowMs ?? 0,
        graceMs: opts.graceMs,
      });
    }
  }
  if (ANSWERED_ENDS.includes(end)) {
    const guidance = detachGuidance(record.id, detachReason(end), opts.windowMs ?? 0);
    yield [
      ...(held ? [held] : []),
      {
        kind: 'status-update',
        taskId: record.id,
        contextId: record.contextId,
        status: { state: 'working', timestamp: new Date().toISOString(), message: agentText(record.id, record.contextId, guidance.text, guidance.metadata) },
        final: false,
        metadata: guidance.metadata,
      },
    ];
  }
}

export async function getTask(taskId: string, historyLength?: number): Promise<Task> {
  const task = await loadTask(taskId, { historyLength });
  if (!task) throw new A2AError('taskNotFound', `no task ${taskId}`);
  return task;
}

/**
 * tasks/resubscribe and SubscribeToTask: the snapshot, then every later event until the end.
 * Not bounded by the response window, so an observer that attached after a detach sees the
 * result; the late-result grace bounds the task itself. On a terminal task v0.3 gets the final
 * snapshot (and a final status) and v1.0 gets -32004, as its spec requires.
 */
export async function* resubscribe(taskId: string, version: '0.3' | '1.0', signal?: AbortSignal): AsyncGenerator<StreamBatch> {
  const record = await findTask(taskId);
  if (!record) throw new A2AError('taskNotFound', `no task ${taskId}`);
  if (isTerminalState(record.state)) {
    if (version === '1.0') throw new A2AError('unsupportedOperation', `task ${taskId} is already ${record.state}`);
    const task = await buildTask(record);
    yield [task, { kind: 'status-update', taskId, contextId: record.contextId, status: task.status, final: true }];
    return;
  }
  if (record.detached) await markReattached(taskId, version === '1.0' ? 'SubscribeToTask' : 'tasks/resubscribe');
  const fresh = (await findTask(taskId))!;
  yield [await buildTask(fresh)];
  yield* followTurn(fresh, { graceMs: 0, signal, detachOnLeave: false });
}

/**
 * tasks/cancel. A task that already ended is not cancelable (-32002); a cancel that loses the
 * terminal claim to a simultaneous completion answers with the task as it actually ended.
 */
export async function cancelTask(taskId: string, reason = 'canceled by request'): Promise<Task> {
  const record = await findTask(taskId);
  if (!record) throw new A2AError('taskNotFound', `no task ${taskId}`);
  if (isTerminalState(record.state)) throw new A2AError('taskNotCancelable', `task ${taskId} is already ${record.state}`);
  const won = await claimTerminal(taskId, {
    state: 'canceled',
    reason,
    message: agentText(taskId, record.contextId, `Task canceled: ${reason}.`),
  });
  if (won) executions().abort(taskId, reason);
  return (await loadTask(taskId))!;
}
