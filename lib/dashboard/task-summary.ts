/**
 * TaskRecord → the summary the list and the feed carry. Pure and cheap: the feed calls it once
 * per committed change (never per subscriber), so it must not touch the database.
 */
import type { TaskRecord } from '../db/task-records';
import type { Part } from '../protocol/types';
import { displayStateOf, type TaskSummary } from './wire';

const PREVIEW_CHARS = 160;
const STATUS_CHARS = 240;

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The text parts of a stored status message, which is untyped JSON in the row. */
export function messageText(message: unknown): string {
  if (!message || typeof message !== 'object') return '';
  const parts = (message as { parts?: unknown }).parts;
  if (!Array.isArray(parts)) return '';
  return (parts as Part[])
    .filter((p) => p && p.kind === 'text' && typeof p.text === 'string')
    .map((p) => (p as { text: string }).text)
    .join(' ');
}

export function toTaskSummary(task: TaskRecord): TaskSummary {
  return {
    id: task.id,
    contextId: task.contextId,
    direction: task.direction,
    agentSlug: task.agentSlug,
    owner: task.owner ? { id: task.owner, name: task.ownerName ?? task.owner } : null,
    peerName: task.peerName,
    peerUrl: task.peerUrl,
    state: task.state,
    displayState: displayStateOf(task.state, task.detached),
    detached: task.detached,
    requestPreview: shorten(task.requestText, PREVIEW_CHARS),
    statusText: shorten(messageText(task.statusMessage), STATUS_CHARS),
    endReason: task.endReason,
    lastSeq: task.lastSeq,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    endedAt: task.endedAt,
    detachedAt: task.detachedAt,
  };
}
