/**
 * Open A2A event streams per caller (500 resubscribe streams from one key were held
 * open). Counted per owner (API key, OIDC subject; every open-mode caller is one owner) on this
 * instance, across agents and bindings: a stream over SWITCHBOARD_MAX_STREAMS_PER_CALLER is
 * refused before it opens. Local by design: a slot is a connection this process holds, so it is
 * released exactly when that connection ends, and nothing is shared to go stale when an
 * instance dies. The hub's own calls (`self`) are not counted: following its own dispatches
 * must never be refused.
 */
import { getSettings } from '../config/settings';
import { quotaExceeded } from '../protocol/errors';
import { appPart } from '../process-singleton';
import { metrics } from '../metrics/metrics';

/** What Retry-After says: streams end when their task does, so a few seconds is a fair wait. */
const RETRY_AFTER_SECONDS = 5;

const openStreams = () => appPart('openStreams', () => new Map<string, number>());

/** Takes a slot for the caller or throws QuotaExceeded; the returned release is idempotent. */
function acquire(owner: string): () => void {
  const counts = openStreams();
  const max = getSettings().maxStreamsPerCaller;
  const open = counts.get(owner) ?? 0;
  if (open >= max) {
    metrics().quotaRefusals.inc({ limit: 'streams' });
    throw quotaExceeded(`this caller already has ${open} open streams (at most ${max}, SWITCHBOARD_MAX_STREAMS_PER_CALLER); close one or retry later`, RETRY_AFTER_SECONDS);
  }
  counts.set(owner, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(owner) ?? 1) - 1;
    if (left > 0) counts.set(owner, left);
    else counts.delete(owner);
  };
}

/**
 * A stream that holds one of the caller's slots while it is open. The slot is taken now (so a
 * refusal is a plain error answer, before anything is created) and released when the stream
 * ends, is closed by its reader, or the request is aborted, whichever comes first.
 */
export function countedStream<T>(caller: string, owner: string, signal: AbortSignal, open: () => AsyncGenerator<T>): AsyncGenerator<T> {
  if (caller === 'self') return open();
  const release = acquire(owner);
  signal.addEventListener('abort', release, { once: true });
  let stream: AsyncGenerator<T>;
  try {
    stream = open();
  } catch (err) {
    release();
    throw err;
  }
  return (async function* () {
    try {
      yield* stream;
    } finally {
      signal.removeEventListener('abort', release);
      release();
    }
  })();
}

/** Open streams per caller on this instance (tests, metrics). */
export function openStreamCount(owner: string): number {
  return openStreams().get(owner) ?? 0;
}

declare module '../process-singleton' {
  interface AppParts {
    /** Open streams per caller, across every route bundle. */
    openStreams: Map<string, number>;
  }
}
