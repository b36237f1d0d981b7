/**
 * The one query-key factory. Keys nest (all → lists → list(filter)) so a whole family can be
 * invalidated or patched at once, e.g. every loaded list when the feed reports a change.
 */
import type { TaskFilter } from '@/lib/dashboard/wire';

export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (filter: TaskFilter) => [...taskKeys.lists(), filter] as const,
  countsAll: () => [...taskKeys.all, 'counts'] as const,
  counts: (filter: TaskFilter) => [...taskKeys.countsAll(), filter] as const,
  details: () => [...taskKeys.all, 'detail'] as const,
  detail: (id: string) => [...taskKeys.details(), id] as const,
  /** Keyed by the task's state too: a new state (an end) may have queued new deliveries. */
  notifications: (id: string, state: string) => [...taskKeys.detail(id), 'notifications', state] as const,
};

export const peerKeys = {
  all: ['peers'] as const,
  list: () => [...peerKeys.all, 'list'] as const,
};

export const sessionKeys = {
  current: ['session'] as const,
};

export const statusKeys = {
  current: ['status'] as const,
};

export const auditKeys = {
  all: ['audit'] as const,
};
