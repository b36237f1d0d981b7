/**
 * Bounded work per event-loop turn for timers that expire together (decision 405). Node keeps
 * the timers of one duration in one list and runs every due one back to back in a single
 * timers phase: a burst of 2,000 sends with a 1 s response window expires hundreds of windows
 * (and held answers) in one turn, each detaching a task and writing an answer, while the health
 * probe's socket waits for the poll phase. A sliced timeout only queues its callback when due;
 * the queue runs at most `perSlice` callbacks per setImmediate, and the next slice is queued
 * from inside the check phase, so it runs one loop iteration later, after a poll phase.
 * Server-only (setImmediate).
 */

/** Callbacks run per slice: small enough that a slice stays a few milliseconds. */
export const DEFAULT_PER_SLICE = 32;

export interface SliceQueue {
  /** Queue `fn` to run in a later slice (at most perSlice per loop turn, in order). */
  run(fn: () => void): void;
  /** Callbacks waiting for a slice. */
  readonly pending: number;
}

export function createSliceQueue(perSlice = DEFAULT_PER_SLICE): SliceQueue {
  const queue: (() => void)[] = [];
  let scheduled = false;
  const slice = () => {
    scheduled = false;
    const batch = queue.splice(0, perSlice);
    let i = 0;
    try {
      for (; i < batch.length; i++) batch[i]();
    } finally {
      // A throw surfaces as a timer's would; the slice's rest keeps its place at the front.
      if (i < batch.length) queue.unshift(...batch.slice(i + 1));
      schedule();
    }
  };
  const schedule = () => {
    if (scheduled || !queue.length) return;
    scheduled = true;
    setImmediate(slice);
  };
  return {
    run(fn) {
      queue.push(fn);
      schedule();
    },
    get pending() {
      return queue.length;
    },
  };
}

/** Resolves in the next loop turn's check phase, after a poll phase: yields the loop to I/O. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** The process's one queue: every site shares it, so their sum per turn is bounded. */
let shared: SliceQueue | undefined;
function sharedQueue(): SliceQueue {
  return (shared ??= createSliceQueue());
}

/** Runs `fn` in a slice of the shared queue (work that arrives in bursts, not from a timer). */
export function inTurnSlice(fn: () => void): void {
  sharedQueue().run(fn);
}

export interface SlicedTimeout {
  /** Cancel: neither the timer nor a callback already queued for a slice runs. */
  clear(): void;
}

/**
 * setTimeout whose callback runs in a slice of `queue` (the shared one by default): late by the
 * slices queued before it (at most ceil(due / perSlice) loop turns), never early.
 */
export function slicedTimeout(fn: () => void, ms: number, queue: SliceQueue = sharedQueue()): SlicedTimeout {
  let cleared = false;
  const timer = setTimeout(() => queue.run(() => cleared || fn()), ms);
  return {
    clear() {
      cleared = true;
      clearTimeout(timer);
    },
  };
}
