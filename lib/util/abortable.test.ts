import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkedSignal, settledWithin, sleep, untilAborted } from './abortable';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;
const never = new Promise<never>(() => undefined);

describe('sleep', () => {
  it('resolves true when the time passes, leaving no listener', async () => {
    const controller = new AbortController();
    expect(await sleep(5, controller.signal)).toBe(true);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('resolves false as soon as the signal aborts, leaving no timer', async () => {
    const controller = new AbortController();
    const before = timers();
    const slept = sleep(60_000, controller.signal);
    expect(timers()).toBe(before + 1);
    controller.abort('stop');
    expect(await slept).toBe(false);
    expect(timers()).toBe(before);
  });

  it('resolves false at once for a signal that already aborted', async () => {
    const before = timers();
    expect(await sleep(60_000, AbortSignal.abort())).toBe(false);
    expect(timers()).toBe(before);
  });
});

describe('untilAborted', () => {
  it('gives the value, and detaches from the signal', async () => {
    const controller = new AbortController();
    expect(await untilAborted(Promise.resolve(7), controller.signal)).toEqual({ aborted: false, value: 7 });
    expect(listeners(controller.signal)).toBe(0);
  });

  it('answers aborted when the signal aborts first', async () => {
    const controller = new AbortController();
    const waiting = untilAborted(never, controller.signal);
    controller.abort();
    expect(await waiting).toEqual({ aborted: true });
    expect(listeners(controller.signal)).toBe(0);
  });

  it('passes a rejection through', async () => {
    const controller = new AbortController();
    await expect(untilAborted(Promise.reject(new Error('boom')), controller.signal)).rejects.toThrow('boom');
    expect(listeners(controller.signal)).toBe(0);
  });
});

describe('settledWithin', () => {
  it('is true when the promise settles in time, fulfilled or rejected, and clears its timer', async () => {
    const before = timers();
    expect(await settledWithin(Promise.resolve(), 60_000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error('x')), 60_000)).toBe(true);
    expect(timers()).toBe(before);
  });

  it('is false when the time runs out first', async () => {
    expect(await settledWithin(never, 5)).toBe(false);
  });
});

describe('linkedSignal', () => {
  it('aborts with the reason of the source that aborted', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkedSignal([a.signal, undefined, b.signal]);
    b.abort('b went');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('b went');
    linked.dispose();
    expect(listeners(a.signal)).toBe(0);
  });

  it('is aborted at once by a source that already aborted', () => {
    const linked = linkedSignal([AbortSignal.abort('earlier')]);
    expect(linked.signal.reason).toBe('earlier');
  });

  it('aborts with the time limit reason when the time runs out', async () => {
    const source = new AbortController();
    const linked = linkedSignal([source.signal], { ms: 5, reason: () => new Error('too slow') });
    await new Promise((resolve) => linked.signal.addEventListener('abort', resolve, { once: true }));
    expect((linked.signal.reason as Error).message).toBe('too slow');
    linked.dispose();
    expect(listeners(source.signal)).toBe(0);
  });

  it('dispose clears the timer and detaches, leaving the signal unaborted', () => {
    const source = new AbortController();
    const before = timers();
    const linked = linkedSignal([source.signal], { ms: 60_000, reason: () => new Error('late') });
    expect(timers()).toBe(before + 1);
    expect(listeners(source.signal)).toBe(1);
    linked.dispose();
    expect(timers()).toBe(before);
    expect(listeners(source.signal)).toBe(0);
    source.abort();
    expect(linked.signal.aborted).toBe(false);
  });

  it('rearm starts the time limit again and keeps one timer', () => {
    const before = timers();
    const linked = linkedSignal([], { ms: 60_000, reason: () => new Error('idle') });
    linked.rearm();
    linked.rearm();
    expect(timers()).toBe(before + 1);
    linked.dispose();
    expect(timers()).toBe(before);
  });
});

describe('linkedSignal.abort', () => {
  it('aborts the signal with the reason given, once', () => {
    const linked = linkedSignal([]);
    linked.abort(new Error('closed by the client'));
    linked.abort(new Error('again'));
    expect((linked.signal.reason as Error).message).toBe('closed by the client');
  });
});
