'use client';
/** Marks a running task "watch": this browser announces its end (or its question) if notifications are on. */
import { Button } from '@/components/ui/button';
import { unwatchTask, useNotificationSettings, watchTask } from '@/lib/query/watched-tasks';

export function WatchButton({ taskId }: { taskId: string }) {
  const { watched } = useNotificationSettings();
  const on = Boolean(watched[taskId]);
  return (
    <Button size="sm" variant="ghost" aria-pressed={on} data-testid="watch-task" onClick={() => (on ? unwatchTask(taskId) : watchTask(taskId))}>
      {on ? 'Watching' : 'Watch'}
    </Button>
  );
}
