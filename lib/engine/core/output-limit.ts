/**
 * The server-wide bound on what one task may accumulate as artifacts
 * (SWITCHBOARD_MAX_TASK_OUTPUT_BYTES, default 8 MiB), whoever produces it: a built-in agent, a
 * launched process, or a peer we follow. Going over ends the task FAILED `output limit
 * exceeded` through the terminal claim; the chunk that went over is not stored, and a truncated
 * result is never reported as completed.
 *
 * Bytes are counted as the stored JSON of each artifact chunk. The count lives in memory per
 * task (the writes of a task all pass through this process) and is read back from the event log
 * the first time a task is seen, e.g. a follow-up turn after a restart.
 */
import { getSettings } from '../../config/settings';
import { taskReader } from '../../db/client';
import type { NewEvent } from '../../db/task-records';
import { eventJson } from '../../db/task-store';
import { appPart } from '../../process-singleton';
import type { MaybeAsync } from '../../util/maybe-async';

export const OUTPUT_LIMIT_EXCEEDED = 'output limit exceeded';

/** Entries are only a cache of the event log, so dropping them all is always safe. */
const MAX_METERED_TASKS = 100_000;

function artifactBytes(events: readonly NewEvent[]): number {
  let bytes = 0;
  for (const e of events) if (e.type === 'artifact') bytes += eventJson(e).length;
  return bytes;
}

/** Applies `then` at once to a number, or when its promise resolves (the store's read may be either). */
const withUsed = (used: MaybeAsync<number>, then: (used: number) => boolean): MaybeAsync<boolean> =>
  typeof used === 'number' ? then(used) : used.then(then);

export class OutputMeter {
  private readonly used = new Map<string, number>();

  /** A new task: nothing stored yet beyond its first events. */
  start(taskId: string, events: readonly NewEvent[]): void {
    this.remember(taskId, artifactBytes(events));
  }

  /**
   * Counts the artifact chunks in `events` against the task's limit. False (and nothing counted)
   * when they would take it over.
   */
  admit(taskId: string, events: readonly NewEvent[]): MaybeAsync<boolean> {
    const bytes = artifactBytes(events);
    if (bytes === 0) return true;
    return withUsed(this.usedBytes(taskId), (used) => this.count(taskId, used, bytes));
  }

  /** Whether `events` would be admitted now; counts nothing (admit does, when they are written). */
  fits(taskId: string, events: readonly NewEvent[]): MaybeAsync<boolean> {
    const bytes = artifactBytes(events);
    if (bytes === 0) return true;
    return withUsed(this.usedBytes(taskId), (used) => used + bytes <= getSettings().maxTaskOutputBytes);
  }

  /** What the task has stored: counted here, or, at first sight of it in this process (a restart, another instance), read from the log. */
  private usedBytes(taskId: string): MaybeAsync<number> {
    return this.used.get(taskId) ?? taskReader().artifactBytes(taskId);
  }

  private count(taskId: string, used: number, bytes: number): boolean {
    if (used + bytes > getSettings().maxTaskOutputBytes) return false;
    this.remember(taskId, used + bytes);
    return true;
  }

  /** The task ended: nothing more will be appended. */
  forget(taskId: string): void {
    this.used.delete(taskId);
  }

  private remember(taskId: string, bytes: number): void {
    if (this.used.size >= MAX_METERED_TASKS && !this.used.has(taskId)) this.used.clear();
    this.used.set(taskId, bytes);
  }
}

export function outputMeter(): OutputMeter {
  return appPart('outputMeter', () => new OutputMeter());
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Bytes each running task has written. */
    outputMeter: OutputMeter;
  }
}
