/**
 * Merging of a task's queued plain appends, for both writers. Plain appends (events only: no
 * patch, messages or materialisation) to a task whose latest queued write is a plain append with
 * the same guard are merged into it: one guarded UPDATE for the whole run of a stream's chunks
 * instead of one per chunk. Each caller still gets exactly its own events (with their seqs) and
 * the row as the merged write left it. Any other write for the task closes the run, so the order
 * of a task's writes never changes.
 */
import type { Message } from '../protocol/types';
import type { NewEvent, TaskPatch } from './task-records';
import { guardKey, isPlainAppend, serializeEvents, type SerializedEvent, type WriteGuard, type WriteResult } from './task-store';

interface OpenRun {
  key: string | null;
  events: SerializedEvent[];
  result: Promise<WriteResult | null>;
}

/** Queues the write; `begin` (called when it runs) closes the run and gives its final events. */
type Enqueue = (begin: () => SerializedEvent[]) => Promise<WriteResult | null>;

export class AppendRuns {
  private readonly open = new Map<string, OpenRun>();

  /** Another kind of write for the task: later appends must not join the open run. */
  close(taskId: string): void {
    this.open.delete(taskId);
  }

  queue(taskId: string, events: NewEvent[], patch: TaskPatch, guard: WriteGuard, messages: Message[], materialize: boolean, enqueue: Enqueue): Promise<WriteResult | null> {
    const key = isPlainAppend(patch, messages, materialize) ? guardKey(guard) : null;
    const open = this.open.get(taskId);
    if (key !== null && open?.key === key) {
      const from = open.events.length;
      open.events.push(...serializeEvents(events));
      return open.result.then((r) => r && { row: r.row, events: r.events.slice(from, from + events.length) });
    }
    const run: OpenRun = { key, events: serializeEvents(events), result: Promise.resolve(null) };
    run.result = enqueue(() => {
      if (this.open.get(taskId) === run) this.open.delete(taskId);
      return run.events;
    });
    if (key !== null) this.open.set(taskId, run);
    else this.open.delete(taskId);
    return run.result.then((r) => r && { row: r.row, events: r.events.slice(0, events.length) });
  }
}
