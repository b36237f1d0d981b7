/**
 * Plain-text descriptions of timeline events, shared by the task page and the command line.
 * Client-safe (no server imports).
 */
import type { TimelineEvent } from './wire';
import { messageText } from '../protocol/message-text';
import { isTerminalState, type Message } from '../protocol/types';

type RemoteNote = Extract<TimelineEvent, { type: 'remote' }>['payload'];

function text(message: unknown): string {
  return messageText(message).trim();
}

function short(value: string, max = 300): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/**
 * A peer that detached reports it as a working status whose message carries
 * metadata.switchboard.detached (our own servers do); for an outbound task that is the detach.
 */
export function isPeerDetach(event: TimelineEvent): boolean {
  return event.type === 'status' && event.state === 'working' && peerSwitchboard(event.payload.message)?.detached === true;
}

function peerSwitchboard(message: Message | undefined): { detached?: unknown; reason?: unknown } | undefined {
  const sb = message?.metadata?.switchboard;
  return sb && typeof sb === 'object' ? (sb as { detached?: unknown; reason?: unknown }) : undefined;
}

/** What the outbound client noted about the peer (`remote` events), in the operator's words. */
function describeRemote(p: RemoteNote): { title: string; detail: string | null } {
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
    case 'stream-unreadable':
      return { title: `The peer's stream could not be read — ${p.via ?? 'falling back'}`, detail: detail(p.reason) };
    case 'polling':
      return { title: 'Polling the peer (it cannot be subscribed to)', detail: detail(p.reason) };
    case 'timing-warning':
      return { title: 'Timing warning', detail: detail(p.warning) };
    case 'resumed':
      return { title: 'Resumed after a restart', detail: p.phase ? `from phase ${p.phase}` : null };
    case 'adopted':
      return { title: "Adopted the peer's only task in this dispatch's context", detail: detail(p.note) };
    case 'final-differs':
      return { title: "The peer's final result differs from its stream", detail: detail(p.note) };
    case 'cancel':
      return { title: 'Cancel sent to the peer', detail: p.answer ? `the peer answered ${p.answer}` : null };
    default:
      return { title: `Peer: ${p.event ?? 'note'}`, detail: detail(p.note ?? p.reason) };
  }
}

/** A one-line title and an optional detail for a timeline event; all of it plain text. */
export function describeEvent(event: TimelineEvent): { title: string; detail: string | null } {
  const said = (message: unknown) => (text(message) ? short(text(message)) : null);
  if (event.type === 'status' && isPeerDetach(event)) {
    const reason = peerSwitchboard(event.payload.message)?.reason;
    return { title: `Peer detached${typeof reason === 'string' ? ` — ${reason}` : ''}`, detail: said(event.payload.message) };
  }
  switch (event.type) {
    case 'submitted':
      return { title: `Submitted${event.payload.peer ? ` by ${event.payload.peer}` : ''}`, detail: said(event.payload.message) };
    case 'status': {
      const state = event.state ?? 'unknown';
      const title = state.charAt(0).toUpperCase() + state.slice(1) + (event.payload.reply === 'message' ? ' — replied with a direct message' : '');
      if (isTerminalState(state)) return { title, detail: event.payload.reason ?? said(event.payload.message) };
      return { title: state === 'working' ? 'Working' : `State: ${state}`, detail: said(event.payload.message) };
    }
    case 'detached':
      return { title: `Detached${event.payload.reason ? ` — ${event.payload.reason}` : ''}`, detail: 'The caller stopped waiting; the task keeps running and its result will be recorded.' };
    case 'reattached':
      return { title: `Reattached${event.payload.via ? ` via ${event.payload.via}` : ''}`, detail: null };
    case 'message':
      return { title: `Message from ${event.payload.message.role ?? 'caller'}`, detail: said(event.payload.message) };
    case 'follow-error':
      return { title: 'Following the peer failed (will retry)', detail: short(event.payload.error) };
    case 'remote':
      return describeRemote(event.payload);
    default:
      return { title: event.type, detail: null };
  }
}
