import { describe, expect, it, vi } from 'vitest';
import type { TaskChange } from '../events/hub';
import type { TaskRecord } from '../db/task-records';
import { FeedBroadcaster, WRITE_SLICE } from './feed';

function record(id: string, state: TaskRecord['state'], lastSeq: number): TaskRecord {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id, contextId: 'c', direction: 'inbound', agentSlug: 'echo', peerName: null, peerUrl: null, remoteTaskId: null, owner: 'anonymous', ownerName: 'anonymous', state,
    statusMessage: null, requestText: 'hello', resultText: '', detached: false, detachedAt: null, endReason: null, lastSeq,
    metadata: null, follow: null, traceContext: null, parentTaskId: null, createdAt: at, updatedAt: at, endedAt: null,
  };
}

/** Lets real event-loop turns pass until `done` (fake timers stay put, unlike vi.waitFor's). */
async function turnsUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

/** A feed with the event hub's part played by hand: `change` is what the hub would deliver. */
function handFedFeed() {
  let listener: (c: TaskChange) => void = () => undefined;
  const feed = new FeedBroadcaster((l) => ((listener = l), () => undefined));
  return { feed, change: (task: TaskRecord) => listener({ task, events: [] }) };
}

/** The tasks of an SSE feed frame (its `data:` line). */
const frameTasks = (frame: string): { id: string; lastSeq: number }[] => JSON.parse(frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6)).tasks;

describe('FeedBroadcaster (1,000 subscribers stay cheap)', () => {
  it('holds one hub listener however many subscribe, and drops it with the last one', () => {
    let listener: ((c: TaskChange) => void) | null = null;
    const unsubscribe = vi.fn();
    const subscribe = vi.fn((l: (c: TaskChange) => void) => ((listener = l), unsubscribe));
    const feed = new FeedBroadcaster(subscribe);
    const removers = Array.from({ length: 1000 }, () => feed.add(() => undefined));
    expect(subscribe).toHaveBeenCalledTimes(1);
    expect(listener).not.toBeNull();
    removers.forEach((remove) => remove());
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    expect(feed.size).toBe(0);
  });

  it('coalesces changes per task and sends every subscriber the same encoded batch', () => {
    vi.useFakeTimers();
    const { feed, change } = handFedFeed();
    const a: string[] = [];
    const b: string[] = [];
    feed.add((s) => a.push(s));
    feed.add((s) => b.push(s));
    change(record('t1', 'working', 2));
    change(record('t1', 'working', 3));
    change(record('t2', 'completed', 4));
    vi.advanceTimersByTime(200);
    expect(a).toHaveLength(1);
    expect(b[0]).toBe(a[0]);
    expect(frameTasks(a[0]).map((t) => [t.id, t.lastSeq])).toEqual([['t1', 3], ['t2', 4]]);
    vi.useRealTimers();
  });

  it('writes a frame one slice of subscribers per event-loop turn, so others get the loop in between', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { feed, change } = handFedFeed();
      const got = Array.from({ length: WRITE_SLICE * 3 + 5 }, () => [] as string[]);
      let seenBetween = -1;
      got.forEach((frames, i) =>
        feed.add((s) => {
          frames.push(s);
          // Queued before the feed's next slice: runs while the rest still wait for theirs.
          if (i === WRITE_SLICE - 1 && frames.length === 1) setImmediate(() => (seenBetween = got.filter((f) => f.length).length));
        }),
      );
      change(record('t1', 'working', 2));
      vi.advanceTimersByTime(50);
      await turnsUntil(() => got.every((f) => f.length === 1));
      expect(seenBetween).toBe(WRITE_SLICE);
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts the next frame only after every subscriber has the previous one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { feed, change } = handFedFeed();
      const got = Array.from({ length: WRITE_SLICE * 4 }, () => [] as number[]);
      const seqOf = (s: string) => frameTasks(s)[0].lastSeq;
      got.forEach((frames) => feed.add((s) => frames.push(seqOf(s))));
      change(record('t1', 'working', 2));
      vi.advanceTimersByTime(50); // the first frame starts; only its first slice is out
      change(record('t1', 'working', 3));
      vi.advanceTimersByTime(50); // the second flush comes due while the first is still written
      await turnsUntil(() => got.every((f) => f.length === 1));
      vi.advanceTimersByTime(50); // deferred until the first frame was out everywhere
      await turnsUntil(() => got.every((f) => f.length === 2));
      expect(got.every((f) => f[0] === 2 && f[1] === 3)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
