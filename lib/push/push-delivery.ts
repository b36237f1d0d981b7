/**
 * Delivers push notifications on task state changes (not on every artifact chunk). Listens on
 * the event hub; v0.3 configs get the Task object with X-A2A-Notification-Token, v1.0 configs
 * get a StreamResponse ({statusUpdate}) with Authorization from `authentication`.
 * Delivery is best effort with a short retry; failures are logged with task and URL. Every
 * POST goes through the connect-time SSRF guard (guarded-post.ts).
 */
import { eventHub, type TaskChange } from '../events/hub';
import { listPushConfigs, taskIdsWithPushConfigs, type PushConfigRecord } from '../db/push-repo';
import { buildTask } from '../engine/snapshot';
import { toStreamEvent } from '../engine/stream-events';
import { streamEventToV10, taskToV10 } from '../protocol/v10';
import { processSingleton } from '../process-singleton';
import { isClustered, listenCluster, notifyCluster } from '../engine/cluster';
import { errorMessage, log } from '../log';
import { postWebhook, WebhookRefusedError } from './guarded-post';
import { pushAllowlist } from './push-allowlist';
import { beginPushSpan } from '../tracing/spans';
import type { TraceContext } from '../protocol/trace-context';

const TIMEOUT_MS = 10_000;
const RETRIES = 2;

interface DeliveryState {
  tracked: Set<string>;
  started: boolean;
}

const state = () => processSingleton<DeliveryState>('push-delivery', () => ({ tracked: new Set(), started: false }));

/** Channel on which instances tell each other that a task got a push config (several instances). */
const TRACK_CHANNEL = 'switchboard_push_tasks';

const loadTracked = (s: DeliveryState) => taskIdsWithPushConfigs().then((ids) => ids.forEach((id) => s.tracked.add(id)));

/**
 * Starts listening (once per process); tasks with configs are tracked so other changes cost
 * nothing. With several instances the instance that commits a change delivers it, so every
 * instance must know every task with a config: a registration is announced to all of them, and
 * after a gap in listening the set is read again.
 */
export function ensurePushDelivery(): void {
  const s = state();
  if (s.started) return;
  s.started = true;
  void loadTracked(s);
  if (isClustered()) {
    void listenCluster(TRACK_CHANNEL, { onMessage: (taskId) => s.tracked.add(taskId), onGap: () => void loadTracked(s) }).catch((err) =>
      log.warn('push delivery: listening for other instances failed', { error: errorMessage(err) }),
    );
  }
  eventHub().subscribeFeed((change) => {
    if (!s.tracked.has(change.task.id)) return;
    if (!change.events.some((e) => e.type === 'status' || e.type === 'detached')) return;
    void deliver(change);
  }, { localOnly: true }); // the instance that committed a change delivers it: once per cluster
}

export function trackPushTask(taskId: string): void {
  ensurePushDelivery();
  state().tracked.add(taskId);
  void notifyCluster(TRACK_CHANNEL, taskId).catch((err) => log.warn('push delivery: announcing a config failed', { taskId, error: errorMessage(err) }));
}

async function deliver(change: TaskChange): Promise<void> {
  const configs = await listPushConfigs(change.task.id);
  if (!configs.length) return;
  const task = await buildTask(change.task, { historyLength: 0 });
  const statusEvent = [...change.events].reverse().find((e) => e.type === 'status' || e.type === 'detached');
  const update = statusEvent ? toStreamEvent(statusEvent, change.task.contextId) : null;
  for (const config of configs) {
    const body = config.version === '0.3' ? task : update ? streamEventToV10(update) : { task: taskToV10(task) };
    void post(config, body, change.task.traceContext);
  }
}

/** One delivery (a span when tracing is on): its attempts, then the outcome. */
async function post(config: PushConfigRecord, body: unknown, trace: TraceContext | null): Promise<void> {
  const span = beginPushSpan(config.taskId, config.url, trace);
  const failure = await attempts(config, body, span.headers);
  span.end(failure ?? undefined);
}

/** Null when delivered, else why not. */
async function attempts(config: PushConfigRecord, body: unknown, traceHeaders: Record<string, string>): Promise<string | null> {
  let failure = 'not delivered';
  const headers: Record<string, string> = {
    ...traceHeaders, // the task's trace (W3C traceparent/tracestate), so a receiver can join it
    'Content-Type': config.version === '1.0' ? 'application/a2a+json' : 'application/json',
  };
  if (config.token) headers['X-A2A-Notification-Token'] = config.token;
  if (config.authentication?.credentials) headers.Authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    try {
      const status = await postWebhook({ url: config.url, headers, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS, allowlist: pushAllowlist() });
      if (status >= 200 && status < 300) return null;
      failure = `webhook answered HTTP ${status}`;
      log.warn('push notification refused by webhook', { taskId: config.taskId, url: config.url, status, attempt });
    } catch (err) {
      if (err instanceof WebhookRefusedError) {
        // A policy refusal does not change on retry: nothing was sent, and nothing will be.
        log.warn('push notification not sent: webhook address refused', { taskId: config.taskId, url: config.url, error: err.message });
        return err.message;
      }
      failure = errorMessage(err);
      log.warn('push notification failed', { taskId: config.taskId, url: config.url, error: failure, attempt });
    }
    await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
  }
  return failure;
}
