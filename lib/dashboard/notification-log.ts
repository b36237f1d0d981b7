/** A task's notification deliveries as the task page shows them (lib/dashboard/notification-wire). */
import type { DeliveryRecord } from '../db/notification-repo';
import { findTask } from '../db/task-repo';
import { store } from '../db/store';
import type { Delivery, DeliveryList } from './notification-wire';

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

const iso = (sqliteTime: string) => new Date(sqliteTime).toISOString();

function toDelivery(r: DeliveryRecord): Delivery {
  return {
    id: r.id,
    rule: r.rule,
    events: r.event.split(','),
    target: originOf(r.url),
    format: r.format,
    state: r.state,
    attempts: r.attempts,
    attemptLog: r.attemptLog,
    nextAttemptAt: r.state === 'pending' ? iso(r.nextAttemptAt) : null,
    lastError: r.lastError,
    createdAt: iso(r.createdAt),
    deliveredAt: r.deliveredAt ? iso(r.deliveredAt) : null,
  };
}

/** null when there is no such task. */
export async function taskDeliveries(taskId: string): Promise<DeliveryList | null> {
  if (!(await findTask(taskId))) return null;
  return { deliveries: (await store().notifications.byTask(taskId)).map(toDelivery) };
}
