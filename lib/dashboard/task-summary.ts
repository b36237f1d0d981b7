/**
 * TaskRecord → the summary the list and the feed carry. Pure and cheap: the feed calls it once
 * per committed change (never per subscriber), so it must not touch the database.
 */
import type { TaskRecord } from '../db/task-records';
import { statusTextOf } from '../protocol/summary-rule';
import { displayStateOf, type TaskSummary } from './wire';

const PREVIEW_CHARS = 160;

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
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
    statusText: statusTextOf(task.statusMessage),
    endReason: task.endReason,
    lastSeq: task.lastSeq,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    endedAt: task.endedAt,
    detachedAt: task.detachedAt,
  };
}
