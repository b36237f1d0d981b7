import { afterEach, describe, expect, it } from 'vitest';
import { createSliceQueue, slicedTimeout } from './turn-slices';
import { probe } from '../../tests/support/loop-probe';

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

/** `total` timers of one duration, due together; the first one pokes the probe. */
async function expireTogether(total: number, arm: (fn: () => void, ms: number) => void) {
  let ran = 0;
  const p = await probe(() => ran);
  closers.push(p.close);
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  for (let i = 0; i < total; i++) {
    arm(() => {
      if (ran++ === 0) p.poke();
      if (ran === total) done();
    }, 5);
  }
  // Node reads the clock for each timer it arms, so on a loaded machine (or across a GC pause)
  // the 500 may start in different milliseconds and come due in different loop turns. Holding
  // the loop until the last one is past due makes them due together in the first timers phase.
  const dueBy = performance.now() + 5 + 2;
  while (performance.now() < dueBy) {
    // hold the loop: this is the setup, not a wait for the result
  }
  await all;
  return { probeSawRan: await p.seen };
}

describe('turn slices', () => {
  it('sliced timers due together run a slice per loop turn, and a poll phase runs between slices', async () => {
    const queue = createSliceQueue(20);
    const { probeSawRan } = await expireTogether(500, (fn, ms) => void slicedTimeout(fn, ms, queue));
    // The byte was read after some whole slices and before the last one. (Plain setTimeout
    // timers run every one due in one timers phase: the byte is read after all that were due.)
    expect(probeSawRan).toBeGreaterThanOrEqual(20);
    expect(probeSawRan).toBeLessThan(500);
    expect(probeSawRan % 20).toBe(0);
  });

  it('runs in order, and a timeout cleared while it waits does not run', async () => {
    const queue = createSliceQueue(2);
    const ran: number[] = [];
    const timers: { clear(): void }[] = [];
    const last = new Promise<void>((resolve) => {
      for (const i of [0, 1, 2, 3, 4]) {
        timers.push(
          slicedTimeout(() => {
            ran.push(i);
            if (i === 0) timers[4].clear(); // queued for a later slice (or not yet due): never runs
            if (i === 3) resolve();
          }, 1, queue),
        );
      }
    });
    await last;
    await new Promise<void>((resolve) => {
      const check = () => (queue.pending === 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(ran).toEqual([0, 1, 2, 3]);
  });
});
