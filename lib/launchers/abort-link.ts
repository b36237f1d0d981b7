/**
 * One signal that aborts when any of its sources does (a turn's own signal, the runner's
 * close). Unlike AbortSignal.any it detaches its listeners when the turn is over, so a
 * long-lived source does not collect one listener per turn.
 */
export interface LinkedSignal {
  signal: AbortSignal;
  dispose(): void;
}

export function linkSignals(...sources: AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const listeners = sources.map((source) => {
    const onAbort = () => controller.abort(source.reason);
    if (source.aborted) onAbort();
    else source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  return { signal: controller.signal, dispose: () => listeners.forEach((remove) => remove()) };
}
