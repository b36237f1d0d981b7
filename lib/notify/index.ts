/**
 * Operator notifications (issue 17 §2): rules from the config file, matched against every
 * committed task change on the event hub, enqueued durably (one row per rule and trigger) and
 * delivered by the DeliveryWorker. Started at boot before restart recovery, so the tasks that
 * recovery ends are reported too.
 */
import type { NotificationRule } from '../config/notification-rules';
import { fileConfig } from '../config/file-config';
import { getSettings, hubBaseUrl } from '../config/settings';
import { eventHub, type TaskChange } from '../events/hub';
import { enqueueDelivery } from '../db/notification-repo';
import { refuseWebhookTarget } from '../push/webhook-target';
import { processSingleton } from '../process-singleton';
import { errorMessage, log } from '../log';
import { buildPayload } from './payloads';
import { deliveryId, triggersFor } from './triggers';
import { allowlistFor, DeliveryWorker } from './delivery';

export class NotificationConfigError extends Error {}

interface NotifyState {
  rules: Map<string, NotificationRule>;
  worker: DeliveryWorker | null;
}

const state = () => processSingleton<NotifyState>('notifications', () => ({ rules: new Map(), worker: null }));

/** The rules, or a NotificationConfigError listing every invalid key or refused target. */
async function loadRules(): Promise<NotificationRule[]> {
  const config = fileConfig();
  const errors = config.errors.filter((e) => /: notifications\b/.test(e));
  for (const rule of config.notifications) {
    const refusal = refuseWebhookTarget(rule.url, allowlistFor(rule));
    if (refusal) errors.push(`${config.file}: notifications "${rule.name}": ${refusal} (or set allowPrivate: true on this rule)`);
  }
  if (errors.length) throw new NotificationConfigError(`Invalid notification rules:\n  ${errors.join('\n  ')}`);
  return config.notifications;
}

function onChange(change: TaskChange): void {
  const s = state();
  const triggers = triggersFor(change, [...s.rules.values()]);
  if (!triggers.length) return;
  const dashboardUrl = `${hubBaseUrl(getSettings())}/tasks/${encodeURIComponent(change.task.id)}`;
  const pending: Promise<unknown>[] = [];
  for (const { rule, events, seq } of triggers) {
    const id = deliveryId(rule.name, change.task.id, seq);
    const payload = JSON.stringify(buildPayload(rule.format, { deliveryId: id, rule: rule.name, events, task: change.task, dashboardUrl, at: new Date() }));
    const notEnqueued = (err: unknown) => log.error('notification not enqueued', { delivery: id, error: errorMessage(err) });
    try {
      const added = enqueueDelivery({ id, taskId: change.task.id, rule: rule.name, event: events.join(','), seq, url: rule.url, format: rule.format, payload });
      if (added instanceof Promise) pending.push(added.catch(notEnqueued)); // PostgreSQL
    } catch (err) {
      notEnqueued(err);
    }
  }
  if (pending.length) void Promise.all(pending).then(() => s.worker?.kick());
  else s.worker?.kick();
}

/** Boot: load and check the rules (throws NotificationConfigError), listen, send what is pending. */
export async function startNotifications(): Promise<void> {
  const s = state();
  if (s.worker) return;
  const rules = await loadRules();
  s.rules = new Map(rules.map((r) => [r.name, r]));
  s.worker = new DeliveryWorker(() => state().rules);
  // The instance that committed a change enqueues it (one row per trigger in any case: its id).
  if (rules.length) eventHub().subscribeFeed(onChange, { localOnly: true });
  s.worker.kick(); // pending deliveries from before a restart
  if (rules.length) log.info('notification rules loaded', { rules: rules.map((r) => r.name) });
}
