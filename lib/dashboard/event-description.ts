/**
 * Plain-text descriptions of timeline events, shared by the task page and the command line.
 * Client-safe (no server imports).
 */
import { isTerminal, type TimelineEvent } from './wire';

interface Payload {
  /** A `remote` event's kind: task, blocking-strategy, client-timeout, polling... */
  event?: string;
  note?: string;
  warning?: string;
  phase?: string;
  answer?: string;
  message?: { role?: string; parts?: { kind?: string; text?: string }[]; metadata?: { switchboard?: { detached?: boolean; reason?: string } } };
  reason?: string;
  /** "message": the agent answered with a direct message (the caller got a Message, no task). */
  reply?: string;
  peer?: string;
  via?: string;
  error?: unknown;
  remoteTaskId?: string;
}

function text(message: Payload['message']): string {
  return (message?.parts ?? [])
    .filter((p) => p.kind === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join(' ')
    .trim();
}

function short(value: string, max = 300): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/**
 * A peer that detached reports it as a working status whose message carries
 * metadata.switchboard.detached (our own servers do); for an outbound task that is the detach.
 */
export function isPeerDetach(event: TimelineEvent): boolean {
  const p = (event.payload ?? {}) as Payload;
  return event.type === 'status' && event.state === 'working' && p.message?.metadata?.switchboard?.detached === true;
}

/** What the outbound client noted about the peer (`remote` events), in the operator's words. */
function describeRemote(p: Payload): { title: string; detail: string | null } {
  const detail = (value: unknown) => (typeof value === 'string' && value ? short(value) : null);
  switch (p.event) {
    case 'task':
      return { title: 'Peer task linked', detail: p.remoteTaskId ? `remote task ${p.remoteTaskId}` : null };
    case 'blocking-strategy':
      return { title: `Blocking, sent as a ${p.via ?? 'send'}`, detail: detail(p.reason) };
    case 'client-timeout':
      return { title: 'Client timeout — following the task instead', detail: detail(p.note) };
    case 'streaming-unsupported':
      return { title: 'The peer does not stream', detail: detail(p.note) };
    case 'polling':
      return { title: 'Polling the peer (it cannot be subscribed to)', detail: detail(p.reason) };
    case 'timing-warning':
      return { title: 'Timing warning', detail: detail(p.warning) };
    case 'resumed':
      return { title: 'Resumed after a restart', detail: p.phase ? `from phase ${p.phase}` : null };
    case 'cancel':
      return { title: 'Cancel sent to the peer', detail: p.answer ? `the peer answered ${p.answer}` : null };
    default:
      return { title: `Peer: ${p.event ?? 'note'}`, detail: detail(p.note ?? p.reason) };
  }
}

/** A one-line title and an optional detail for a timeline event; all of it plain text. */
export function describeEvent(event: TimelineEvent): { title: string; detail: string | null } {
  const p = (event.payload ?? {}) as Payload;
  if (isPeerDetach(event)) {
    const reason = p.message?.metadata?.switchboard?.reason;
    return { title: `Peer detached${reason ? ` — ${reason}` : ''}`, detail: text(p.message) ? short(text(p.message)) : null };
  }
  switch (event.type) {
    case 'submitted':
      return { title: `Submitted${p.peer ? ` by ${p.peer}` : ''}`, detail: text(p.message) ? short(text(p.message)) : null };
    case 'status': {
      const state = event.state ?? 'unknown';
      const title = state.charAt(0).toUpperCase() + state.slice(1) + (p.reply === 'message' ? ' — replied with a direct message' : '');
      if (isTerminal(state)) return { title, detail: p.reason ?? (text(p.message) ? short(text(p.message)) : null) };
      return { title: state === 'working' ? 'Working' : `State: ${state}`, detail: text(p.message) ? short(text(p.message)) : null };
    }
    case 'detached':
      return { title: `Detached${p.reason ? ` — ${p.reason}` : ''}`, detail: 'The caller stopped waiting; the task keeps running and its result will be recorded.' };
    case 'reattached':
      return { title: `Reattached${p.via ? ` via ${p.via}` : ''}`, detail: null };
    case 'message':
      return { title: `Message from ${p.message?.role ?? 'caller'}`, detail: text(p.message) ? short(text(p.message)) : null };
    case 'follow-error':
      return { title: 'Following the peer failed (will retry)', detail: short(typeof p.error === 'string' ? p.error : JSON.stringify(p.error ?? p)) };
    case 'remote':
      return describeRemote(p);
    default:
      return { title: event.type, detail: null };
  }
}
