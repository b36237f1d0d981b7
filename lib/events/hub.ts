/**
 * The one event hub. Every committed task event is published here (after its transaction
 * commits), and every live view subscribes here: A2A streams, the engine's waiters, the
 * dashboard's SSE feeds. Delivery is synchronous and in seq order per task.
 */
import type { StoredEvent, TaskRecord } from '../db/task-records';
import { processSingleton } from '../process-singleton';

export interface TaskChange {
  task: TaskRecord;
  events: StoredEvent[];
}

type TaskListener = (event: StoredEvent) => void;
type FeedListener = (change: TaskChange) => void;

export class EventHub {
  private readonly byTask = new Map<string, Set<TaskListener>>();
  private readonly feed = new Set<FeedListener>();

  /** Called by the engine once the events (and the task row they changed) are committed. */
  publish(change: TaskChange): void {
    const listeners = this.byTask.get(change.task.id);
    if (listeners) {
      for (const event of change.events) for (const listener of [...listeners]) listener(event);
    }
    for (const listener of [...this.feed]) listener(change);
  }

  subscribeTask(taskId: string, listener: TaskListener): () => void {
    let set = this.byTask.get(taskId);
    if (!set) this.byTask.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byTask.get(taskId) === set) this.byTask.delete(taskId);
    };
  }

  subscribeFeed(listener: FeedListener): () => void {
    this.feed.add(listener);
    return () => this.feed.delete(listener);
  }

  listenerCount(): number {
    let n = this.feed.size;
    for (const set of this.byTask.values()) n += set.size;
    return n;
  }
}

export function eventHub(): EventHub {
  return processSingleton('event-hub', () => new EventHub());
}
