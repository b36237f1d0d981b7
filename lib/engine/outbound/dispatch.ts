/**
 * Dispatch: send a message to a peer as an outbound task. The task record exists before the
 * answer (202 {taskId} at once); sending and following go on in the background whether or not
 * the HTTP caller stays. `taskId` answers a peer that asked for input, in the same local task.
 */
import { parentProof } from '../../auth/parent-proof';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { createTaskRecord, recordEvents } from '../core/task-writer';
import { findTask, type CommittedChange } from '../../db/task-repo';
import { newId } from '../../db/ids';
import { timeoutFloorWarning } from '../../protocol/timeout-floor';
import type { NewEvent, TaskRecord } from '../../db/task-records';
import type { Message, Part } from '../../protocol/types';
import { ClientError } from '../../protocol/client-error';
import { DISPATCH_MODES } from '../../protocol/dispatch-modes';
import { followJson, readFollowState, statusKey, type FollowState } from './follow-state';
import { startOutbound } from './runner';
import { resolveTarget, URL_EXPECTED, type ResolvedTarget } from '../../peers/resolve';
import { recentCard, type PeerConnection } from '../../peers/connect';
import { sentEvents } from './send-turn';
import { claimLocalFailure } from './endings';
import { isHttpUrl } from '../../client/normalize-url';
import { credentialOriginOf, isBindingEndpoint } from '../../client/endpoint-binding';
import { TimeoutSecondsSchema, type TimeoutSource } from '../../peers/timeouts';
import { beginTaskSpan } from '../../tracing/spans';
import { withTraceMetadata } from '../../protocol/trace-context';
import { getSettings } from '../../config/settings';
import { audited, type AuditActor } from '../../audit/audit-log';

/** Our task page, when a public URL says where the dashboard is (for the peer's task page). */
function dashboardLink(taskId: string): { url?: string } {
  const base = getSettings().publicUrl;
  return base ? { url: `${base}/tasks/${taskId}` } : {};
}

/** A data part's JSON, bounded: it travels to the peer in the message and is stored with it. */
export const MAX_DATA_PART_BYTES = 64 * 1024;

/**
 * What a message carries besides text: one data part (a JSON object), e.g. the `{callId, outcome}`
 * a Gemini CLI agent waits for after asking for tool approval.
 */
const DataPartSchema = z
  .record(z.string(), z.unknown(), { error: 'expected a JSON object' })
  .refine((data) => Buffer.byteLength(JSON.stringify(data)) <= MAX_DATA_PART_BYTES, `at most ${MAX_DATA_PART_BYTES} bytes of JSON`);

export const DispatchRequestSchema = z
  .strictObject({
    peer: z.string().min(1).optional(),
    /** An http(s) URL, or a stored gRPC / HTTP+JSON endpoint (a task's peerUrl: "dispatch again"); the peer resolver reads it. */
    url: z.string().max(2048, 'at most 2048 characters').refine((u) => isHttpUrl(u) || isBindingEndpoint(u), URL_EXPECTED).optional(),
    /** The message's text part; may be left out when `data` is given. */
    text: z.string().optional(),
    /** The message's data part (after the text part when both are given). */
    data: DataPartSchema.optional(),
    mode: z.enum(DISPATCH_MODES).default('blocking'),
    timeoutSeconds: TimeoutSecondsSchema.optional(),
    contextId: z.string().min(1).max(256).optional(),
    taskId: z.string().min(1).optional(),
    /** Force the A2A version when the peer's card offers both. */
    protocolVersion: z.enum(['0.3', '1.0']).optional(),
    /** Passed on as the message's metadata. */
    metadata: z.record(z.string(), z.unknown()).optional(),
    /** The local task this dispatch works for (the delegation graph); a launched agent's token sets it. */
    parentTaskId: z.string().min(1).max(128).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.peer && d.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'give exactly one of peer or url, not both' });
    if (!d.taskId && !d.peer && !d.url) ctx.addIssue({ code: 'custom', path: ['peer'], message: 'give exactly one of peer or url' });
    if (!d.text && !d.data) ctx.addIssue({ code: 'custom', path: ['text'], message: 'expected the text to send (or data, a JSON object)' });
  });
export type DispatchRequest = z.infer<typeof DispatchRequestSchema>;

const REQUEST_TEXT_LIMIT = 2_000;

/**
 * What the engine itself may add to a dispatch beyond the API's fields: the parts to send (a
 * relay agent passes its caller's message on whole; the API sends `text`).
 */
export interface DispatchExtras {
  parts?: Part[];
  /** Reuse the peer's card read within this long (a relay's turns), instead of reading it first. */
  maxCardAgeMs?: number;
  /** The operator who asked (recorded in the audit log); none for the engine's own and delegated dispatches. */
  actor?: AuditActor;
}

function userMessage(req: DispatchRequest, ids: { taskId?: string; contextId: string }, extras: DispatchExtras = {}): Message {
  const parts: Part[] = extras.parts ?? [...(req.text ? [{ kind: 'text' as const, text: req.text }] : []), ...(req.data ? [{ kind: 'data' as const, data: req.data }] : [])];
  return { kind: 'message', messageId: randomUUID(), role: 'user', parts, ...ids, ...(req.metadata ? { metadata: req.metadata } : {}) };
}

/** What the task list shows and searches: the text, else the data's JSON. */
function requestText(req: DispatchRequest): string {
  return (req.text || JSON.stringify(req.data ?? {})).slice(0, REQUEST_TEXT_LIMIT);
}

async function parentTask(parentTaskId: string | undefined): Promise<TaskRecord | null> {
  if (!parentTaskId) return null;
  const parent = await findTask(parentTaskId);
  if (!parent) throw new ClientError(400, 'invalid_request', `parentTaskId: no task ${parentTaskId}`, 'parentTaskId');
  return parent;
}

/** What a dispatch answers: the task, and warnings about how it was asked (a timeout below the floor). */
export interface DispatchAnswer {
  taskId: string;
  warnings?: string[];
}

/**
 * A timeout below the floor that this dispatch or its peer set (not the server default, which
 * its operator chose for the whole instance) is warned about in the answer, never refused.
 */
function floorWarnings(timeoutMs: number, source: TimeoutSource): string[] {
  const warning = source === 'default' ? null : timeoutFloorWarning(timeoutMs / 1000, source === 'dispatch' ? 'timeoutSeconds' : "the peer's timeout");
  return warning ? [warning] : [];
}

const answer = (taskId: string, warnings: string[]): DispatchAnswer => (warnings.length ? { taskId, warnings } : { taskId });

async function newDispatch(req: DispatchRequest, extras: DispatchExtras): Promise<DispatchAnswer> {
  const target = await resolveTarget({ peer: req.peer, url: req.url, timeoutSeconds: req.timeoutSeconds });
  const parent = await parentTask(req.parentTaskId);
  const created = createDispatched(req, extras, target, parent);
  const change = await created.change;
  startOutbound(change.task.id, created.runOptions(change));
  return answer(change.task.id, floorWarnings(target.timeout.ms, target.timeout.source));
}

/** The parent's facts a child's creation needs (its id for the graph, its trace to continue). */
type ParentFacts = Pick<TaskRecord, 'id' | 'traceContext'>;

/**
 * Issues the creation of a new outbound task (its write is queued before this returns, so a
 * caller that issues another creation in the same event-loop turn shares its commit), and says
 * how its runner is to start once it is committed.
 */
function createDispatched(req: DispatchRequest, extras: DispatchExtras, target: ResolvedTarget, parent: ParentFacts | null) {
  const taskId = newId();
  const contextId = req.contextId ?? newId();
  const traceContext = beginTaskSpan({ taskId, contextId, direction: 'outbound', target: target.peerName ?? target.url, parent: parent?.traceContext });
  // The peer's task names ours as its parent (with our proof, so this hub links it when the peer
  // is itself), and the trace travels in metadata too.
  const metadata = withTraceMetadata(req.metadata, traceContext, { taskId, ...dashboardLink(taskId), proof: parentProof(taskId) });
  const message = userMessage({ ...req, metadata }, { contextId }, extras);
  const follow: FollowState = {
    mode: req.mode,
    phase: 'connect',
    target: { peer: req.peer, url: req.url, timeoutSeconds: req.timeoutSeconds },
    timeoutMs: target.timeout.ms,
    timeoutSource: target.timeout.source,
    prefer: req.protocolVersion,
    remoteContextId: contextId,
    ...(req.contextId ? {} : { contextMinted: true }),
    message,
    startedAt: new Date().toISOString(),
    ...(extras.maxCardAgeMs !== undefined ? { maxCardAgeMs: extras.maxCardAgeMs } : {}),
  };
  const resolved = { peer: target.peerName, url: target.url, matchedBy: target.matchedBy, timeoutMs: target.timeout.ms, timeoutSource: target.timeout.source };
  const connected = connectedAtOnce(target, follow, extras);
  const change = createTaskRecord(
    {
      id: taskId, contextId, direction: 'outbound', peerName: target.peerName ?? undefined, peerUrl: connected?.conn.endpoint ?? target.url, state: connected ? 'working' : 'submitted',
      requestText: requestText(req), follow: followJson(connected?.follow ?? follow), traceContext, parentTaskId: parent?.id,
    },
    [{ type: 'submitted', state: 'submitted', payload: { message, mode: req.mode, target: resolved } }, ...(connected?.events ?? [])],
    [{ ...message, taskId }],
  );
  const runOptions = (committed: CommittedChange) => ({ target, ...(connected ? { created: { record: committed.task, follow: connected.follow, conn: connected.conn } } : {}) });
  return { taskId, change, runOptions };
}

/** A child task to create in its parent's first commit: `create` issues the write; `start` sends, once both committed. */
export interface ChildCreation {
  create(parent: ParentFacts): { taskId: string; start(): Promise<boolean>; abandon(reason: string): Promise<void> };
}

/**
 * A new dispatch prepared before its parent task exists (a relay's first turn: decision 371):
 * the peer is resolved now (its read), and the child is created connected and `sent` (its
 * peer's card is recent) in the same group commit as the parent. Null without a recent card:
 * then the turn dispatches as usual.
 */
export async function prepareChildDispatch(req: DispatchRequest, extras: DispatchExtras): Promise<ChildCreation | null> {
  const target = await resolveTarget({ peer: req.peer, url: req.url, timeoutSeconds: req.timeoutSeconds });
  if (extras.maxCardAgeMs === undefined || !recentCard(target, extras.maxCardAgeMs, req.protocolVersion)) return null;
  return {
    create(parent) {
      const created = createDispatched(req, extras, target, parent);
      void created.change.catch(() => undefined); // settled by start or abandon
      return {
        taskId: created.taskId,
        async start() {
          const change = await created.change.catch(() => null);
          if (!change) return false;
          startOutbound(change.task.id, created.runOptions(change));
          // The send is issued, but its socket write waits for a tick, and ticks run only once
          // every queued promise job has: the caller's task's bookkeeping (its turn, the answer's
          // observation) would all run first while the peer waits for the message. One turn of
          // the event loop lets the message go now, and the peer works while we do (decision 401).
          await new Promise<void>((resolve) => setImmediate(resolve));
          return true;
        },
        async abandon(reason) {
          const change = await created.change.catch(() => null);
          if (change) await claimLocalFailure(change.task, `dispatch failed: ${reason}; nothing was sent`);
        },
      };
    },
  };
}

/**
 * A dispatch allowed to reuse the peer's recent card (a relay's turn) that has one connects
 * before its task exists: the task is then created connected and `sent` in its first commit,
 * as the runner would have recorded it in two more (decision 352). Null otherwise: the runner
 * reads the card and records the connection and the send as usual.
 */
function connectedAtOnce(target: ResolvedTarget, follow: FollowState, extras: DispatchExtras): { conn: PeerConnection; follow: FollowState; events: NewEvent[] } | null {
  const recent = extras.maxCardAgeMs === undefined ? null : recentCard(target, extras.maxCardAgeMs, follow.prefer);
  if (!recent) return null;
  const { version, endpoint, streaming } = recent.conn;
  return {
    conn: recent.conn,
    follow: { ...follow, phase: 'sent', version, endpoint, streaming },
    events: [{ type: 'status', state: 'working', payload: { connected: { version, endpoint, streaming } } }, ...sentEvents(follow.mode, streaming)],
  };
}

function assertFollowUpTarget(req: DispatchRequest, record: TaskRecord, follow: FollowState): void {
  if (req.peer && req.peer !== (record.peerName ?? undefined)) {
    throw new ClientError(400, 'invalid_request', `peer: task ${record.id} was dispatched to ${record.peerName ?? record.peerUrl}, not "${req.peer}"`, 'peer');
  }
  // The dashboard's reply names the task's recorded endpoint (its peerUrl), as "dispatch again" does.
  if (req.url && req.url !== follow.target.url && req.url !== record.peerUrl) {
    throw new ClientError(400, 'invalid_request', `url: task ${record.id} was dispatched to ${follow.target.url ?? record.peerName}`, 'url');
  }
}

async function followUp(req: DispatchRequest, taskId: string, extras: DispatchExtras): Promise<DispatchAnswer> {
  const record = await findTask(taskId);
  if (!record || record.direction !== 'outbound') throw new ClientError(404, 'unknown_task', `taskId: no outbound task ${taskId}`, 'taskId');
  const follow = readFollowState(record);
  if (!['input-required', 'auth-required'].includes(record.state) || !follow || !record.remoteTaskId) {
    throw new ClientError(409, 'not_waiting', `taskId: task ${taskId} is ${record.state}; a follow-up answers only a task waiting for input (input-required)`, 'taskId');
  }
  assertFollowUpTarget(req, record, follow);
  const overrideSeconds = req.timeoutSeconds ?? follow.target.timeoutSeconds;
  const target = await resolveTarget({ peer: follow.target.peer, url: follow.target.url, timeoutSeconds: overrideSeconds });
  const message = userMessage(req, { taskId: record.remoteTaskId, contextId: follow.remoteContextId ?? record.contextId }, extras);
  const next: FollowState = {
    ...follow,
    mode: req.mode,
    phase: 'send',
    target: { ...follow.target, timeoutSeconds: overrideSeconds },
    timeoutMs: target.timeout.ms,
    timeoutSource: target.timeout.source,
    message,
    answering: statusKey({ state: record.state, message: record.statusMessage as Message | null }),
    startedAt: new Date().toISOString(),
  };
  const local: Message = { ...message, taskId, contextId: record.contextId };
  const warnings = floorWarnings(target.timeout.ms, target.timeout.source);
  const change = await recordEvents(
    taskId,
    [{ type: 'message', payload: { message: local, mode: req.mode } }, { type: 'status', state: 'working', payload: {} }],
    { onlyIfStateIn: [record.state], messages: [local], patch: { follow: followJson(next) } },
  );
  if (!change) throw new ClientError(409, 'not_waiting', `taskId: task ${taskId} changed state meanwhile; reload it`, 'taskId');
  startOutbound(taskId, { target });
  return answer(taskId, warnings);
}

/** Creates (or continues) the outbound task and starts working on it; returns at once. */
export async function dispatchTask(req: DispatchRequest, extras: DispatchExtras = {}): Promise<DispatchAnswer> {
  if (req.taskId) return audited(extras.actor, 'reply', { target: req.taskId }, () => followUp(req, req.taskId!, extras));
  return audited(extras.actor, 'dispatch', { detail: dispatchFacts(req) }, () => newDispatch(req, extras), (a) => ({ target: a.taskId }));
}

function originOf(url: string): string {
  try {
    return credentialOriginOf(url); // a gRPC endpoint's is http://host:port
  } catch {
    return 'invalid URL';
  }
}

/** Where a dispatch went, for the audit log: the peer's name, or only the origin of a URL (its path may hold a token). */
function dispatchFacts(req: DispatchRequest): Record<string, string> {
  const facts: Record<string, string> = { mode: req.mode };
  if (req.peer) facts.peer = req.peer;
  if (req.url) facts.url = originOf(req.url);
  if (req.parentTaskId) facts.parent = req.parentTaskId;
  return facts;
}
