/**
 * Browser notifications (the Notification API) for watched tasks: while any watched task is
 * unfinished and the operator opted in, the feed (GET /api/feed) is followed, and a task that
 * ends or asks for input is announced once. EventSource keeps running in a background tab, which
 * is where these matter. Each (re)connect reads the watched tasks once, so an end that happened
 * while no stream was open is still announced.
 */
import { useEffect } from 'react';
import { FEED_EVENT, FeedBatchSchema, isTerminal, TaskDetailSchema, type TaskSummary } from '@/lib/dashboard/wire';
import { apiGet } from './api-client';
import { openLiveStream } from './live-stream';
import { claimAnnouncement, useNotificationSettings, type WatchedTasks } from './watched-tasks';

const announces = (state: string) => isTerminal(state) || state === 'input-required';

function unfinished(watched: WatchedTasks): string[] {
  return Object.entries(watched)
    .filter(([, w]) => !w.notified || !isTerminal(w.notified))
    .map(([id]) => id)
    .sort();
}

function show(task: TaskSummary): void {
  const who = task.direction === 'outbound' ? `→ ${task.peerName ?? task.peerUrl ?? 'peer'}` : `← ${task.agentSlug ?? 'agent'}`;
  const title = task.state === 'input-required' ? 'Task needs input' : `Task ${task.state}`;
  const reason = task.endReason ?? (task.state === 'input-required' ? task.statusText : '');
  const notification = new Notification(title, { body: `${who}: ${task.requestPreview}${reason ? `\n${reason}` : ''}`, tag: `${task.id}:${task.state}` });
  notification.onclick = () => {
    window.focus();
    window.location.assign(`/tasks/${encodeURIComponent(task.id)}`);
  };
}

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function useBrowserNotifications(): void {
  const { enabled, watched } = useNotificationSettings();
  const pending = unfinished(watched);
  const pendingKey = pending.join(',');

  useEffect(() => {
    if (!enabled || !pendingKey || !notificationsSupported() || Notification.permission !== 'granted') return;
    const ids = new Set(pendingKey.split(','));
    const seen = (task: TaskSummary) => {
      if (ids.has(task.id) && announces(task.state) && claimAnnouncement(task.id, task.state)) show(task);
    };
    const catchUp = () => {
      for (const id of ids) void apiGet(`/api/tasks/${encodeURIComponent(id)}`, TaskDetailSchema).then((d) => seen(d.task), () => undefined);
    };
    return openLiveStream({
      url: () => '/api/feed',
      events: { [FEED_EVENT]: (data) => FeedBatchSchema.parse(JSON.parse(data)).tasks.forEach(seen) },
      onStatus: (status) => status === 'live' && catchUp(),
    });
  }, [enabled, pendingKey]);
}
