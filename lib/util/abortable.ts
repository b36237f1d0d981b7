/**
 * The one home for waiting with an abort signal or a time limit. Every helper here
 * leaves no timer and no listener behind once it has settled, so a long-lived signal (a
 * runner's close, the shutdown signal) does not collect one listener per wait.
 */

/** Resolves true after `ms`, or false as soon as `signal` aborts (at once if it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type UntilAborted<T> = { aborted: false; value: T } | { aborted: true };

/** What `promise` resolves to, or `aborted` as soon as `signal` aborts; a rejection passes through. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<UntilAborted<T>> {
  if (signal.aborted) return Promise.resolve({ aborted: true });
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve({ aborted: true });
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ aborted: false, value });
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Waits for `promise` to settle, at most `ms`: true if it settled in time (either way). */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeUp]);
  } finally {
    clearTimeout(timer);
  }
}

export interface LinkedSignal {
  /** Aborts with the reason of the first source that aborts, or the timeout's reason. */
  signal: AbortSignal;
  /** Starts the time limit again (an idle timeout touched by activity); no-op once aborted. */
  rearm(): void;
  /** Aborts the signal now (the owner is done with what it guards); no-op once aborted. */
  abort(reason?: unknown): void;
  /** Detaches from the sources and clears the timer; the signal stays as it is. */
  dispose(): void;
}

export interface TimeLimit {
  ms: number;
  /** The abort reason when the time is up (an Error naming what took too long). */
  reason: () => unknown;
}

/**
 * One signal that aborts when any source does, or when `limit` runs out. Unlike
 * AbortSignal.any / AbortSignal.timeout it detaches its listeners and clears its timer on
 * dispose(), and the timeout carries a reason of the caller's choosing.
 */
export function linkedSignal(sources: readonly (AbortSignal | undefined)[], limit?: TimeLimit): LinkedSignal {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const detach = sources.map((source) => {
    if (!source) return () => undefined;
    const onAbort = () => controller.abort(source.reason);
    if (source.aborted) onAbort();
    else source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  const rearm = () => {
    if (!limit || controller.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(limit.reason()), limit.ms);
  };
  rearm();
  return {
    signal: controller.signal,
    rearm,
    abort: (reason?: unknown) => controller.abort(reason),
    dispose: () => {
      clearTimeout(timer);
      detach.forEach((remove) => remove());
    },
  };
}
