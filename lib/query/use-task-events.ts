/**
 * Follows one task live (GET /api/tasks/:id/events) and writes its events into the detail
 * cache. It resumes after the cached detail's lastSeq (?after=, then Last-Event-ID on the
 * browser's own retries), so the timeline stays gapless across drops and server restarts.
 * Events are applied in small batches: a fast stream re-renders ~10 times a second, not per chunk.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { TASK_STREAM_EVENTS, TaskDetailSchema, TimelineEventSchema, type TaskDetail, type TimelineEvent } from '@/lib/dashboard/wire';
import { taskKeys } from './keys';
import { openLiveStream, type LiveStatus } from './live-stream';
import { applyTaskEvents } from './task-reducer';

const FLUSH_MS = 100;

export function useTaskEvents(id: string, enabled: boolean): LiveStatus {
  const client = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');

  useEffect(() => {
    if (!enabled) return;
    const key = taskKeys.detail(id);
    let buffer: TimelineEvent[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      flushTimer = undefined;
      const events = buffer;
      buffer = [];
      if (events.length) client.setQueryData<TaskDetail>(key, (d) => (d ? applyTaskEvents(d, events) : d));
    };
    const close = openLiveStream({
      url: () => {
        flush();
        const lastSeq = client.getQueryData<TaskDetail>(key)?.task.lastSeq;
        return `/api/tasks/${encodeURIComponent(id)}/events${lastSeq !== undefined ? `?after=${lastSeq}` : ''}`;
      },
      onStatus: setStatus,
      events: {
        [TASK_STREAM_EVENTS.snapshot]: (data) => {
          const detail = TaskDetailSchema.parse(JSON.parse(data));
          client.setQueryData<TaskDetail>(key, (d) => (d && d.task.lastSeq > detail.task.lastSeq ? d : detail));
        },
        [TASK_STREAM_EVENTS.event]: (data) => {
          buffer.push(TimelineEventSchema.parse(JSON.parse(data)));
          flushTimer ??= setTimeout(flush, FLUSH_MS);
        },
        [TASK_STREAM_EVENTS.end]: () => {
          flush();
          // The server's materialised final task is the authority on the whole result.
          void client.invalidateQueries({ queryKey: key, exact: true });
          void client.invalidateQueries({ queryKey: taskKeys.countsAll() });
          return 'end';
        },
      },
    });
    return () => {
      if (flushTimer) clearTimeout(flushTimer);
      close();
    };
  }, [client, id, enabled]);

  return enabled ? status : 'ended';
}
