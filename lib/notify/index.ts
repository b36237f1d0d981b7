/**
 * Operator notifications: rules from the config file, matched against every task
 * change as it is written, enqueued in that change's own transaction (lib/db/change-outbox.ts:
 * one row per rule and trigger, so a crash cannot keep the end and lose its notification) and
 * delivered by the outbox worker (delivery.ts), which the committed change wakes. A row is owned
 * by the committing instance, as a push delivery is; on PostgreSQL a survivor takes over the rows
 * of an instance that is gone (lib/db/postgres/cluster-member.ts). Started at boot before restart recovery,
 * so the tasks that recovery ends are reported too.
 */
import type { NotificationRule } from '../config/notification-rules';
import { fileConfig } from '../config/file-config';
import { getSettings, hubBaseUrl } from '../config/settings';
import { eventHub, type TaskChange } from '../events/hub';
import { planOutbox, type NewDelivery, type OutboxRows } from '../db/change-outbox';
import { toChange } from '../db/task-repo';
import type { WriteResult } from '../db/task-store';
import { isTerminalState } from '../protocol/types';
import { refuseResolvedTarget, refuseWebhookTarget } from '../push/webhook-target';
import { appPart } from '../process-singleton';
import { instanceId } from '../db/instance';
import { store } from '../db/store';
import { log } from '../log';
import { buildPayload } from './payloads';
import { deliveryId, triggersFor } from './triggers';
import { allowlistFor, deliveryWorker } from './delivery';
import type { OutboxWorker } from '../push/outbox-worker';
import { storedTargetOf, type DeliveryRecord } from '../db/notification-repo';

export class NotificationConfigError extends Error {}

interface NotifyState {
  rules: Map<string, NotificationRule>;
  worker: OutboxWorker<DeliveryRecord> | null;
}

const state = () => appPart('notifications', () => ({ rules: new Map(), worker: null }));

/** The rules, or a NotificationConfigError listing every invalid key or refused target. */
async function loadRules(): Promise<NotificationRule[]> {
  const config = fileConfig();
  const errors = config.errors.filter((e) => /: notifications\b/.test(e));
  for (const rule of config.notifications) {
    // The operator's own config: resolving its host names here tells no caller anything.
    const refusal = refuseWebhookTarget(rule.url, allowlistFor(rule)) ?? (await refuseResolvedTarget(rule.url, allowlistFor(rule)));
    if (refusal) errors.push(`${config.file}: notifications "${rule.name}": ${refusal} (or set allowPrivate: true on this rule)`);
  }
  if (errors.length) throw new NotificationConfigError(`Invalid notification rules:\n  ${errors.join('\n  ')}`);
  return config.notifications;
}

/** The outbox rows of a write (inside its transaction): one per rule and trigger. */
function planNotifications(written: WriteResult): OutboxRows | null {
  const rules = [...state().rules.values()];
  if (!rules.length || !written.events.some((e) => e.type === 'status' && e.state && (isTerminalState(e.state) || e.state === 'input-required'))) return null;
  const change = toChange(written.row.id as string, written);
  const triggers = triggersFor(change, rules);
  if (!triggers.length) return null;
  const dashboardUrl = `${hubBaseUrl(getSettings())}/tasks/${encodeURIComponent(change.task.id)}`;
  const notifications = triggers.map(({ rule, events, seq }): NewDelivery => {
    const id = deliveryId(rule.name, change.task.id, seq);
    const payload = JSON.stringify(buildPayload(rule.format, { deliveryId: id, rule: rule.name, events, task: change.task, dashboardUrl, at: new Date() }));
    // Only the target's origin is stored (and logged): a webhook's secret sits in its path or
    // query, and the sender takes the full URL from the rule (decision 179).
    return { id, taskId: change.task.id, rule: rule.name, event: events.join(','), seq, url: storedTargetOf(rule.url), format: rule.format, payload, owner: instanceId() };
  });
  return { notifications };
}

/** After a change committed here: its notifications are in the outbox; send them. */
function onChange(change: TaskChange): void {
  const s = state();
  if (triggersFor(change, [...s.rules.values()]).length) s.worker?.kick();
}

/** Boot: load and check the rules (throws NotificationConfigError), listen, send what is pending. */
export async function startNotifications(): Promise<void> {
  const s = state();
  if (s.worker) return;
  const rules = await loadRules();
  s.rules = new Map(rules.map((r) => [r.name, r]));
  s.worker = deliveryWorker(() => state().rules, instanceId());
  store().membership.adoptOutbox('NotificationDelivery', s.worker); // woken by takeovers where instances share the database
  // The instance that committed a change enqueued it (one row per trigger in any case: its id).
  if (rules.length) {
    planOutbox(planNotifications);
    eventHub().subscribeFeed(onChange, { localOnly: true });
  }
  s.worker.kick(); // pending deliveries from before a restart
  if (rules.length) log.info('notification rules loaded', { rules: rules.map((r) => r.name) });
}

/** The app's stop: sends no more, waits for the deliveries in flight. */
export async function stopNotifications(): Promise<void> {
  const s = state();
  const worker = s.worker;
  s.worker = null;
  await worker?.stop();
}

declare module '../process-singleton' {
  interface AppParts {
    /** The notification rules and sender. */
    notifications: NotifyState;
  }
}
