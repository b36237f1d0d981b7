/**
 * EventSource with the reconnect behaviour the dashboard needs. The browser's own retry keeps
 * Last-Event-ID; when it gives up (an HTTP error while the server restarts) we open a new
 * EventSource ourselves, with backoff, from a freshly computed URL (which carries ?after=).
 * The status distinguishes a dropped stream ("reconnecting") from one that ended on purpose.
 */
import { backoffDelay } from '@/lib/util/backoff';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'paused';

export interface LiveStreamOptions {
  /** Called for every (re)connect, so it can carry the latest resume point. */
  url: () => string;
  /** Named SSE events; return 'end' to close the stream for good. */
  events: Record<string, (data: string) => void | 'end'>;
  onStatus: (status: LiveStatus) => void;
  /** Every successful open after the first one: time to catch up on what was missed. */
  onReconnected?: () => void;
}

/** From 0.5 s, doubling, at most 8 s: a restarting server is usually back within a few seconds. */
const RECONNECT_BACKOFF = { initialMs: 500, maxMs: 8_000 };

export function openLiveStream(opts: LiveStreamOptions): () => void {
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempts = 0;
  let opened = false;
  let stopped = false;

  const stop = (status: LiveStatus | null) => {
    stopped = true;
    if (timer) clearTimeout(timer);
    source?.close();
    source = null;
    if (status) opts.onStatus(status);
  };

  const connect = () => {
    if (stopped) return;
    const es = new EventSource(opts.url());
    source = es;
    es.onopen = () => {
      attempts = 0;
      opts.onStatus('live');
      if (opened) opts.onReconnected?.();
      opened = true;
    };
    es.onerror = () => {
      if (stopped) return;
      opts.onStatus('reconnecting');
      if (es.readyState !== EventSource.CLOSED) return; // the browser retries with Last-Event-ID
      es.close();
      const delay = backoffDelay(RECONNECT_BACKOFF, ++attempts);
      timer = setTimeout(connect, delay);
    };
    for (const [name, handler] of Object.entries(opts.events)) {
      es.addEventListener(name, (event) => {
        if (stopped || source !== es) return;
        if (handler((event as MessageEvent<string>).data) === 'end') stop('ended');
      });
    }
  };

  opts.onStatus('connecting');
  connect();
  return () => stop(null);
}
