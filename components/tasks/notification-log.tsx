'use client';
/** The task's operator notifications (config file rules): where each went and how each attempt fared. */
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import type { Delivery } from '@/lib/dashboard/notification-wire';
import { useTaskNotifications } from '@/lib/query/use-task-notifications';
import { formatDateTime } from './format';

const TONE: Record<Delivery['state'], BadgeTone> = { pending: 'amber', delivered: 'green', failed: 'red', refused: 'rose' };

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const last = delivery.attemptLog[delivery.attemptLog.length - 1];
  return (
    <li className="space-y-1 py-2" data-testid="notification-delivery">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={TONE[delivery.state]} data-testid="notification-state">
          {delivery.state}
        </Badge>
        <span className="font-medium">{delivery.rule}</span>
        <span className="text-zinc-500 dark:text-zinc-400">
          {delivery.events.join(', ')} → {delivery.target} ({delivery.format})
        </span>
      </div>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
        {delivery.deliveredAt ? ` · delivered ${formatDateTime(delivery.deliveredAt)}` : ''}
        {delivery.nextAttemptAt ? ` · next try ${formatDateTime(delivery.nextAttemptAt)}` : ''}
        {last?.error ? ` · last: ${last.error}` : ''}
      </p>
    </li>
  );
}

export function NotificationLog({ taskId, state }: { taskId: string; state: string }) {
  const query = useTaskNotifications(taskId, state);
  const deliveries = query.data?.deliveries ?? [];
  if (!deliveries.length) return null;
  return (
    <Card aria-labelledby="notifications-title" data-testid="notification-log">
      <CardHeader id="notifications-title" title="Notifications" />
      <CardBody>
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {deliveries.map((d) => (
            <DeliveryRow key={d.id} delivery={d} />
          ))}
        </ul>
      </CardBody>
    </Card>
  );
}
