'use client';
/** The header's opt-in for browser notifications; asks the browser's permission on the first click. */
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { enableNotifications, setNotificationsEnabled, useNotificationPermission, useNotificationSettings } from '@/lib/query/watched-tasks';

export function NotificationToggle() {
  const { enabled } = useNotificationSettings();
  const permission = useNotificationPermission();
  if (permission === null || permission === 'unsupported') return null;
  if (permission === 'denied') {
    return (
      <Badge tone="gray" title="This browser blocks notifications for this site; allow them in its site settings." data-testid="notifications-blocked">
        Notifications blocked
      </Badge>
    );
  }
  const on = enabled && permission === 'granted';
  return (
    <Button
      size="sm"
      variant="ghost"
      data-testid="notifications-toggle"
      aria-pressed={on}
      title="Browser notifications when a task you dispatched or watch ends or needs input"
      onClick={() => (on ? setNotificationsEnabled(false) : void enableNotifications())}
    >
      {on ? 'Notifications on' : 'Enable notifications'}
    </Button>
  );
}
