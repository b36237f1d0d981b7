/**
 * Sends queued notifications (the store's notification outbox). Each attempt passes the
 * push SSRF guard first; a 2xx marks the row delivered (final: it is never sent again, also after
 * a restart); a network error, 408, 429 or 5xx is retried with doubling backoff up to the rule's
 * `retries`; anything else, or the last retry, marks it failed. Every attempt is logged on the row,
 * and marked started on it before the POST: a row taken over from an instance that died mid-POST
 * is sent again with the same id (at least once, as push deliveries; docs/decisions.md).
 */
import type { NotificationRule } from '../config/notification-rules';
import { getSettings } from '../config/settings';
import type { AttemptOutcome, DeliveryAttempt, DeliveryRecord } from '../db/notification-repo';
import { store } from '../db/store';
import { refuseWebhookTarget } from '../push/webhook-target';
import { PushAllowlist } from '../push/address-policy';
import { postWebhook, WebhookRefusedError } from '../push/guarded-post';
import { OutboxWorker, recordOutcome } from '../push/outbox-worker';
import { errorMessage, log } from '../log';
import { backoffDelay } from '../util/backoff';

const TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 3_600_000;
const ATTEMPT_LOG_LIMIT = 25;

/** SWITCHBOARD_PUSH_ALLOWLIST, plus the rule's own host when the operator allowed it explicitly. */
export function allowlistFor(rule: NotificationRule): PushAllowlist {
  const allowlist = [...getSettings().pushAllowlist];
  if (rule.allowPrivate) allowlist.push(new URL(rule.url).hostname.replace(/^\[|\]$/g, '').toLowerCase());
  return new PushAllowlist(allowlist);
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

export function backoffMs(rule: Pick<NotificationRule, 'backoffSeconds'>, attempt: number): number {
  return backoffDelay({ initialMs: rule.backoffSeconds * 1000, maxMs: MAX_BACKOFF_MS }, attempt);
}

type Sent = { ok: true; status: number } | { ok: false; status?: number; error: string; retry: boolean; refused?: boolean };

/** One POST through lib/push's guard: every resolved address is checked when connecting. */
async function post(record: DeliveryRecord, rule: NotificationRule): Promise<Sent> {
  try {
    const status = await postWebhook({
      url: rule.url, // the row keeps only the origin
      allowlist: allowlistFor(rule),
      timeoutMs: TIMEOUT_MS,
      headers: {
        ...rule.headers,
        'Content-Type': 'application/json',
        'User-Agent': 'Switchboard-Notifications/1',
        // The same id on every retry, so a receiver can drop a duplicate.
        'Idempotency-Key': record.id,
        'X-Switchboard-Delivery': record.id,
      },
      body: record.payload,
    });
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, status, error: `HTTP ${status}`, retry: retryable(status) };
  } catch (err) {
    if (err instanceof WebhookRefusedError) return { ok: false, error: err.message, retry: false, refused: true };
    return { ok: false, error: errorMessage(err), retry: true };
  }
}

/** The attempt log entry for an attempt whose outcome was never recorded (its instance died mid-POST). */
const unknownOutcome = (startedAt: string): DeliveryAttempt => ({ at: new Date(startedAt).toISOString(), error: 'outcome unknown: the instance sending it stopped during the attempt' });

async function attempt(record: DeliveryRecord, rule: NotificationRule | undefined, owner: string): Promise<void> {
  const attempts = await store().notifications.startAttempt(record.id, owner, new Date());
  if (attempts === null) return; // finished meanwhile, or no longer this instance's
  const now = new Date();
  const entry: DeliveryAttempt = { at: now.toISOString() };
  const earlier = record.attemptStartedAt ? [unknownOutcome(record.attemptStartedAt)] : [];
  if (record.attemptStartedAt) log.warn('notification sent again: the outcome of an earlier attempt is unknown', { delivery: record.id, since: record.attemptStartedAt });
  const logged = (e: DeliveryAttempt) => [...record.attemptLog, ...earlier, e].slice(-ATTEMPT_LOG_LIMIT);
  const finish = (o: AttemptOutcome) => recordOutcome(() => store().notifications.recordAttempt(record.id, owner, o), `notification ${record.id}`);
  if (!rule) {
    const error = `rule "${record.rule}" is no longer in the config file`;
    await finish({ state: 'failed', attemptLog: logged({ ...entry, error }), nextAttemptAt: now, lastError: error, deliveredAt: null });
    return;
  }
  // Syntax and IP literals first (no request at all), then every resolved address when connecting.
  const early = refuseWebhookTarget(rule.url, allowlistFor(rule));
  const sent: Sent = early === null ? await post(record, rule) : { ok: false, error: early, retry: false, refused: true };
  if (!sent.ok && sent.refused) {
    const refusal = sent.error;
    const error = `refused by the SSRF guard: ${refusal}`;
    await finish({ state: 'refused', attemptLog: logged({ ...entry, error }), nextAttemptAt: now, lastError: error, deliveredAt: null });
    log.warn('notification refused', { delivery: record.id, target: record.url, refusal });
    return;
  }
  if (sent.ok) {
    await finish({ state: 'delivered', attemptLog: logged({ ...entry, status: sent.status }), nextAttemptAt: now, lastError: null, deliveredAt: new Date() });
    return;
  }
  const again = sent.retry && attempts <= rule.retries;
  await finish({
    state: again ? 'pending' : 'failed',
    attemptLog: logged({ ...entry, error: sent.error, ...(sent.status ? { status: sent.status } : {}) }),
    nextAttemptAt: new Date(now.getTime() + (again ? backoffMs(rule, attempts) : 0)),
    lastError: sent.error,
    deliveredAt: null,
  });
  log.warn(again ? 'notification failed; will retry' : 'notification failed; giving up', { delivery: record.id, target: record.url, error: sent.error, attempts });
}

/**
 * The notification outbox's worker (lib/push/outbox-worker.ts): this instance's due rows (`owner`,
 * as push deliveries are owned), then a timer for the next.
 */
export function deliveryWorker(rules: () => ReadonlyMap<string, NotificationRule>, owner: string): OutboxWorker<DeliveryRecord> {
  return new OutboxWorker('notification delivery', {
    due: () => store().notifications.due(owner, new Date(), 20),
    nextDue: () => store().notifications.nextDue(owner),
    key: (d) => d.id,
    attempt: (d) => attempt(d, rules().get(d.rule), owner),
  });
}
