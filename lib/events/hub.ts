/**
 * The one event hub. Every committed task event is published here (after its transaction
 * commits), and every live view subscribes here: A2A streams, the engine's waiters, the
 * dashboard's SSE feeds. Delivery is synchronous and in seq order per task.
 *
 * With several instances on one PostgreSQL, changes committed by another instance are published
 * here too, by the relay (pg-relay.ts), marked `remote`. Feed listeners that act on a change
 * once for the whole cluster (push delivery) subscribe `localOnly`: the instance that committed
 * the change acts on it.
 */
import type { StoredEvent, TaskRecord } from '../db/task-records';
import { appPart } from '../process-singleton';

export interface TaskChange {
  task: TaskRecord;
  events: StoredEvent[];
  /** Committed by another instance (relayed from the database). */
  remote?: boolean;
}

type TaskListener = (event: StoredEvent) => void;
type FeedListener = (change: TaskChange) => void;

export class EventHub {
  private readonly byTask = new Map<string, Set<TaskListener>>();
  private readonly feed = new Set<FeedListener>();
  private readonly localOnlyFeed = new Set<FeedListener>();

  /** Called by the engine once the events (and the task row they changed) are committed. */
  publish(change: TaskChange): void {
    const listeners = this.byTask.get(change.task.id);
    if (listeners) {
      for (const event of change.events) for (const listener of [...listeners]) listener(event);
    }
    for (const listener of [...this.feed]) listener(change);
    if (!change.remote) for (const listener of [...this.localOnlyFeed]) listener(change);
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

  subscribeFeed(listener: FeedListener, opts: { localOnly?: boolean } = {}): () => void {
    const set = opts.localOnly ? this.localOnlyFeed : this.feed;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** What a remote change of this task is needed for here: its events, only its row, or nothing. */
  remoteInterest(taskId: string): 'events' | 'row' | null {
    if (this.byTask.has(taskId)) return 'events';
    return this.feed.size ? 'row' : null;
  }

  /** Tasks that someone here follows event by event. */
  followedTasks(): string[] {
    return [...this.byTask.keys()];
  }

  listenerCount(): number {
    let n = this.feed.size + this.localOnlyFeed.size;
    for (const set of this.byTask.values()) n += set.size;
    return n;
  }
}

export function eventHub(): EventHub {
  return appPart('hub', () => new EventHub());
}

declare module '../process-singleton' {
  interface AppParts {
    /** The one event hub. */
    hub: EventHub;
  }
}
