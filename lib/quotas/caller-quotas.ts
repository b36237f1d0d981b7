/**
 * Per-caller quotas (measured without them: 20 requests of 200 bytes stored 194 MiB in 3.4 s): requests per
 * second on every A2A binding, open (not ended) tasks, and bytes a caller's tasks stored within a
 * window. The owner is the one the isolation uses (API key id, OIDC subject, the open-mode
 * owner); the hub's own `self` calls are never refused. A refusal is -32029 QuotaExceeded
 * (HTTP+JSON 429, gRPC RESOURCE_EXHAUSTED) with Retry-After, and counts in
 * switchboard_quota_refusals_total{limit}. A counter the database cannot answer lets the
 * request through (logged): a quota store outage must not become an outage of the hub.
 */
import { quotaExceeded } from '../protocol/errors';
import { metrics } from '../metrics/metrics';
import { getSettings } from '../config/settings';
import { openTasksUpTo } from '../db/quota-repo';
import { SELF_OWNER } from '../db/task-scope';
import { errorMessage, log } from '../log';
import { appPart } from '../process-singleton';
import { addToWindow, readWindow } from './counters';
import { callerLimits } from './limits';

/** Open tasks end on their own (or the caller cancels one); a few seconds is a fair wait. */
const OPEN_TASKS_RETRY_SECONDS = 5;
const WARN_EVERY_MS = 60_000;

type Limit = 'requests' | 'open_tasks' | 'stored_bytes';

const exempt = (caller: string, owner: string) => caller === 'self' || owner === SELF_OWNER;
const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function refuse(limit: Limit, detail: string, retryAfterSeconds: number): never {
  metrics().quotaRefusals.inc({ limit });
  throw quotaExceeded(detail, retryAfterSeconds);
}

const lastWarning = () => appPart('quotaStoreWarning', () => ({ at: 0 }));

/** Runs a counter read or write; on a store error, warns (once a minute) and gives undefined. */
async function counted<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (err) {
    const last = lastWarning();
    if (Date.now() - last.at >= WARN_EVERY_MS) {
      last.at = Date.now();
      log.warn('a quota counter could not be reached; the request was let through', { counter: what, error: errorMessage(err) });
    }
    return undefined;
  }
}

/** Counts one A2A request against the caller's requests per second; throws past it. */
export async function admitRequest(caller: string, owner: string): Promise<void> {
  if (exempt(caller, owner)) return;
  const max = (await callerLimits(owner)).requestsPerSecond;
  if (max === 0) return;
  const count = await counted('requests', () => addToWindow('requests', 1, owner, 1));
  if (!count || count.used <= max) return;
  refuse('requests', `this caller sent more than ${max} requests this second (SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER or the API key's own quota)`, secondsUntil(count.msLeft));
}

/**
 * Before a send that starts a task: the caller's open tasks and the bytes its tasks stored in
 * this window must both be under its limits. Checked, then created: concurrent sends may pass
 * the open-task limit by their number, which the request rate bounds.
 */
export async function admitNewTask(caller: string, owner: string): Promise<void> {
  if (exempt(caller, owner)) return;
  const limits = await callerLimits(owner);
  if (limits.openTasks > 0) {
    const open = await openTasksUpTo(owner, limits.openTasks);
    if (open >= limits.openTasks) {
      refuse('open_tasks', `this caller has ${open} open tasks (at most ${limits.openTasks}, SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER or the API key's own quota); wait for one to end or cancel one`, OPEN_TASKS_RETRY_SECONDS);
    }
  }
  if (limits.storedBytes > 0) {
    const window = getSettings().storedBytesWindowSeconds;
    const stored = await counted('stored_bytes', () => readWindow('stored_bytes', window, owner));
    if (stored && stored.used >= limits.storedBytes) {
      refuse('stored_bytes', `this caller's tasks stored ${stored.used} bytes in the last ${window} s window (at most ${limits.storedBytes}, SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER or the API key's own quota)`, secondsUntil(stored.msLeft));
    }
  }
}

/**
 * Counts what a caller's task stored (the write path calls it for every committed change of an
 * inbound task). Never refuses: what is being written is already bounded per task
 * (SWITCHBOARD_MAX_TASK_OUTPUT_BYTES); the caller's next new task is what a spent budget refuses.
 */
export async function chargeStoredBytes(owner: string, bytes: number): Promise<void> {
  if (bytes <= 0 || owner === SELF_OWNER || (await callerLimits(owner)).storedBytes === 0) return;
  await counted('stored_bytes', () => addToWindow('stored_bytes', getSettings().storedBytesWindowSeconds, owner, bytes));
}

declare module '../process-singleton' {
  interface AppParts {
    /** When a quota store failure was last logged. */
    quotaStoreWarning: { at: number };
  }
}
