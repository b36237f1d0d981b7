/**
 * Plain-text descriptions of timeline events, shared by the task page and the command line.
 * Client-safe (no server imports).
 */
import { isTerminal, type TimelineEvent } from './wire';

interface Payload {
  message?: { role?: string; parts?: { kind?: string; text?: string }[]; metadata?: { switchboard?: { detached?: boolean; reason?: string } } };
  reason?: string;
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
      if (isTerminal(state)) return { title: state.charAt(0).toUpperCase() + state.slice(1), detail: p.reason ?? (text(p.message) ? short(text(p.message)) : null) };
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
      return { title: 'Peer task linked', detail: p.remoteTaskId ? `remote task ${p.remoteTaskId}` : null };
    default:
      return { title: event.type, detail: null };
  }
}
