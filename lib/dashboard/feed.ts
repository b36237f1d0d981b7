/**
 * The global feed behind GET /api/feed: changed task summaries for the live list.
 *
 * Cost model (1,000 open dashboards must be fine): ONE hub listener for the whole process, not
 * one per connection. Changes are coalesced per task for FLUSH_MS (a streaming task's chunks
 * collapse into one summary), each batch is encoded once, and the same string is written to
 * every subscriber. No database query happens here: the hub hands us the committed row.
 * There are no ids to resume from: a client that reconnects refetches its list instead.
 *
 * A frame goes out in slices of WRITE_SLICE subscribers, one slice per event-loop turn: each
 * write runs the response's web-stream pipe and a socket write, so 450 feeds written in one go
 * held the event loop for 10–30 ms (CPU profile of bench:pg cross), and every other request,
 * stream frame and relay read behind them waited that long. One frame is written to everyone
 * before the next starts, so every subscriber sees the frames in order.
 */
import type { TaskChange } from '../events/hub';
import { eventHub } from '../events/hub';
import { appPart } from '../process-singleton';
import { type PushSend } from './sse';
import { encodeFrame } from '../protocol/sse-frames';
import { toTaskSummary } from './task-summary';
import { FEED_EVENT, type TaskSummary } from './wire';

// 50 ms: coalesces a burst (a stream's chunks, a batch commit) into one frame while keeping
// change-to-screen p99 under 100 ms with 500 feeds at 100 tasks/s (bench scenario 4; at 150 ms
// the p99 was 176 ms, the window itself).
const FLUSH_MS = 50;
/** Subscribers written per event-loop turn (a few ms of work). */
export const WRITE_SLICE = 64;

export class FeedBroadcaster {
  private readonly subscribers = new Set<PushSend>();
  private readonly pending = new Map<string, TaskSummary>();
  private unsubscribeHub: (() => void) | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** A frame is still being written (slice by slice); the next flush waits for it. */
  private writing = false;

  constructor(private readonly subscribeHub: (listener: (change: TaskChange) => void) => () => void) {}

  /** Adds a subscriber; returns its removal. The hub listener lives while anyone listens. */
  add(send: PushSend): () => void {
    this.subscribers.add(send);
    this.unsubscribeHub ??= this.subscribeHub((change) => this.onChange(change));
    return () => {
      this.subscribers.delete(send);
      if (this.subscribers.size === 0) this.stop();
    };
  }

  get size(): number {
    return this.subscribers.size;
  }

  private onChange(change: TaskChange): void {
    this.pending.set(change.task.id, toTaskSummary(change.task));
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.flushTimer = null;
    if (this.pending.size === 0 || this.writing) return;
    const frame = encodeFrame({ event: FEED_EVENT, data: { tasks: [...this.pending.values()] } });
    this.pending.clear();
    this.writing = true;
    this.writeSlices(frame, [...this.subscribers], 0);
  }

  private writeSlices(frame: string, targets: PushSend[], from: number): void {
    const end = Math.min(from + WRITE_SLICE, targets.length);
    for (let i = from; i < end; i++) targets[i](frame);
    if (end < targets.length) {
      setImmediate(() => this.writeSlices(frame, targets, end));
      return;
    }
    this.writing = false;
    // Changes that came in while this frame was written: their timer found us busy.
    if (this.pending.size && !this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
  }

  private stop(): void {
    this.unsubscribeHub?.();
    this.unsubscribeHub = null;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.pending.clear();
  }
}

export function feedBroadcaster(): FeedBroadcaster {
  return appPart('dashboardFeed', () => new FeedBroadcaster((listener) => eventHub().subscribeFeed(listener)));
}

declare module '../process-singleton' {
  interface AppParts {
    /** The dashboard feed's broadcaster. */
    dashboardFeed: FeedBroadcaster;
  }
}
