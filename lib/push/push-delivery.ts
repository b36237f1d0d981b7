/**
 * Delivers push notifications on task state changes (not on every artifact chunk). v0.3 configs
 * get the Task object with X-A2A-Notification-Token, v1.0 configs get a StreamResponse
 * ({statusUpdate}) with Authorization from `authentication`. Every POST goes through the
 * connect-time SSRF guard (guarded-post.ts).
 *
 * Durable, owned work: a status (or detached) change of a task with configs queues one
 * PushDelivery row per config in the change's own transaction (lib/db/change-outbox.ts), owned
 * by the committing instance; the committed change wakes the sender, which sends each config's
 * deliveries in seq order, retries a failure twice with a short backoff, and records every
 * attempt on the row before it sends. A restart resends what is pending; on PostgreSQL a
 * survivor takes over a dead instance's rows (lib/db/postgres/cluster-member.ts). An attempt whose outcome
 * was never recorded (its process died mid-POST) is sent again with the same delivery id:
 * at least once (docs/decisions.md).
 */
import { urlOrigin } from '../util/safe-url';
import { eventHub } from '../events/hub';
import { findPushConfig, taskIdsWithPushConfigs, type PushConfigRecord } from '../db/push-repo';
import { planOutbox, type OutboxRows } from '../db/change-outbox';
import { backoffDelay } from '../util/backoff';
import type { PushDeliveryRecord, PushOutcome } from '../db/outbox-rows';
import type { WriteResult } from '../db/task-store';
import { findTask, listEvents } from '../db/task-repo';
import type { TaskRecord } from '../db/task-records';
import { instanceId } from '../db/instance';
import { store } from '../db/store';
import { buildTask, toStreamEvent } from '../engine';
import { streamEventToV10, taskToV10 } from '../protocol/v10';
import { appPart } from '../process-singleton';
import { errorMessage, log } from '../log';
import { postWebhook, WebhookRefusedError } from './guarded-post';
import { pushAllowlist } from './push-allowlist';
import { OutboxWorker, recordOutcome } from './outbox-worker';
import { beginPushSpan } from '../tracing/spans';

const TIMEOUT_MS = 10_000;
/** Attempts after the first. */
const RETRIES = 2;
/** 0.5 s, then 1 s: the pauses before the RETRIES attempts. */
const RETRY_BACKOFF = { initialMs: 500, maxMs: 1_000 };
const backoffMs = (attempts: number) => backoffDelay(RETRY_BACKOFF, attempts);

interface DeliveryState {
  tracked: Set<string>;
  worker: OutboxWorker<PushDeliveryRecord> | null;
}

const state = () => appPart('pushDelivery', () => ({ tracked: new Set(), worker: null }));

/** Channel on which instances tell each other that a task got a push config (several instances). */
const TRACK_CHANNEL = 'switchboard_push_tasks';

const loadTracked = (s: DeliveryState) => taskIdsWithPushConfigs().then((ids) => ids.forEach((id) => s.tracked.add(id)));

const triggerOf = (events: readonly { type: string; seq: number }[]) => [...events].reverse().find((e) => e.type === 'status' || e.type === 'detached');

/**
 * The outbox rows of a write (inside its transaction): one delivery per config of the task, for
 * its last status or detached event. Only tasks known to have configs cost a statement.
 */
function planPushes(written: WriteResult): OutboxRows | null {
  const taskId = written.row.id as string;
  if (!state().tracked.has(taskId)) return null;
  const trigger = triggerOf(written.events);
  return trigger ? { pushes: [{ taskId, seq: trigger.seq, owner: instanceId() }] } : null;
}

/**
 * Starts the sender (once per process) and sends what is pending from before a restart. Tasks
 * with configs are tracked, so other changes cost nothing. With several instances the instance
 * that commits a change queues its deliveries, so every instance must know every task with a
 * config: a registration is announced to all of them, and after a gap in listening the set is
 * read again.
 */
export function ensurePushDelivery(): void {
  const s = state();
  if (s.worker) return;
  const owner = instanceId();
  const worker = new OutboxWorker<PushDeliveryRecord>('push delivery', {
    due: () => store().pushDeliveries.due(owner, new Date(), 50),
    nextDue: () => store().pushDeliveries.nextDue(owner),
    key: (d) => deliveryKey(d),
    attempt: (d) => attempt(d, owner),
  });
  s.worker = worker;
  planOutbox(planPushes);
  void loadTracked(s);
  const membership = store().membership; // alone on the database: nobody to listen to, nothing taken over
  void membership.listen(TRACK_CHANNEL, { onMessage: (taskId) => s.tracked.add(taskId), onGap: () => void loadTracked(s) }).catch((err) =>
    log.warn('push delivery: listening for other instances failed', { error: errorMessage(err) }),
  );
  membership.adoptOutbox('PushDelivery', worker);
  // The committing instance queued the change's deliveries: it sends them.
  eventHub().subscribeFeed((change) => {
    if (s.tracked.has(change.task.id) && triggerOf(change.events)) worker.kick();
  }, { localOnly: true });
  worker.kick();
}

/** The app's stop: sends no more, waits for the attempts in flight; a later start begins again. */
export async function stopPushDelivery(): Promise<void> {
  const s = state();
  const worker = s.worker;
  s.worker = null;
  await worker?.stop();
}

/** Before a config is stored, so no change committed after it misses it. */
export function trackPushTask(taskId: string): void {
  ensurePushDelivery();
  state().tracked.add(taskId);
  void store().membership.broadcast(TRACK_CHANNEL, taskId).catch((err) => log.warn('push delivery: announcing a config failed', { taskId, error: errorMessage(err) }));
}

/** The delivery's id, sent as Idempotency-Key: the same on every attempt, on every instance. */
const deliveryKey = (d: Pick<PushDeliveryRecord, 'taskId' | 'configId' | 'seq'>) => `${d.taskId}:${d.configId}:${d.seq}`;

async function attempt(d: PushDeliveryRecord, owner: string): Promise<void> {
  const attempts = await store().pushDeliveries.startAttempt(d, owner, new Date());
  if (attempts === null) return; // delivered meanwhile, or no longer this instance's
  if (d.attemptStartedAt) log.warn('push notification sent again: the outcome of an earlier attempt is unknown', { delivery: deliveryKey(d), since: d.attemptStartedAt });
  const sent = await send(d, attempts).catch((err: unknown): PushOutcome => ({ state: 'pending', error: errorMessage(err), retryAt: new Date(Date.now() + backoffMs(attempts)) }));
  const outcome: PushOutcome = sent.state === 'pending' && attempts > RETRIES ? { state: 'failed', error: sent.error } : sent;
  await recordOutcome(() => store().pushDeliveries.recordOutcome(d, owner, outcome, new Date()), `push delivery ${deliveryKey(d)}`);
}

async function send(d: PushDeliveryRecord, attempts: number): Promise<PushOutcome> {
  const config = await findPushConfig(d.taskId, d.configId);
  if (!config) return { state: 'failed', error: 'the push notification config was deleted' };
  const record = await findTask(config.taskId);
  if (!record) return { state: 'failed', error: 'the task is gone' };
  const body = await pushBody(config, record, d.seq);
  const span = beginPushSpan(config.taskId, config.url, record.traceContext);
  const outcome = await post(config, body, { id: deliveryKey(d), attempts, traceHeaders: span.headers });
  span.end(outcome.state === 'delivered' ? undefined : outcome.error);
  return outcome;
}

/**
 * The body for the change at `seq`: v1.0 the status update of that event; v0.3 the Task as it is
 * now, with the status of that event (so a late delivery still says which change it reports).
 */
async function pushBody(config: PushConfigRecord, record: TaskRecord, seq: number): Promise<unknown> {
  const event = (await listEvents(config.taskId, seq - 1, ['status', 'detached'])).find((e) => e.seq === seq);
  const update = event ? toStreamEvent(event, record.contextId) : null;
  if (config.version === '1.0' && update) return streamEventToV10(update);
  const task = await buildTask(record, { historyLength: 0 });
  if (config.version === '1.0') return { task: taskToV10(task) };
  return update?.kind === 'status-update' ? { ...task, status: update.status } : task;
}

interface PostOptions {
  /** The delivery's id (Idempotency-Key). */
  id: string;
  attempts: number;
  /** The task's trace (W3C traceparent/tracestate), so a receiver can join it. */
  traceHeaders: Record<string, string>;
}

async function post(config: PushConfigRecord, body: unknown, { id, attempts, traceHeaders }: PostOptions): Promise<PushOutcome> {
  const headers: Record<string, string> = {
    ...traceHeaders,
    'Content-Type': config.version === '1.0' ? 'application/a2a+json' : 'application/json',
    // The same on every attempt, also one sent again after a takeover, so a receiver can drop a duplicate.
    'Idempotency-Key': id,
    'X-Switchboard-Delivery': id,
  };
  if (config.token) headers['X-A2A-Notification-Token'] = config.token;
  if (config.authentication?.credentials) headers.Authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
  const retry = (error: string): PushOutcome => ({ state: 'pending', error, retryAt: new Date(Date.now() + backoffMs(attempts)) });
  try {
    const status = await postWebhook({ url: config.url, headers, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS, allowlist: pushAllowlist() });
    if (status >= 200 && status < 300) return { state: 'delivered' };
    log.warn('push notification refused by webhook', { taskId: config.taskId, target: urlOrigin(config.url), status, attempts });
    return retry(`webhook answered HTTP ${status}`);
  } catch (err) {
    if (err instanceof WebhookRefusedError) {
      // A policy refusal does not change on retry: nothing was sent, and nothing will be.
      log.warn('push notification not sent: webhook address refused', { taskId: config.taskId, target: urlOrigin(config.url), error: err.message });
      return { state: 'failed', error: err.message };
    }
    log.warn('push notification failed', { taskId: config.taskId, target: urlOrigin(config.url), error: errorMessage(err), attempts });
    return retry(errorMessage(err));
  }
}

declare module '../process-singleton' {
  interface AppParts {
    /** The push sender and the tasks with configs. */
    pushDelivery: DeliveryState;
  }
}
