/**
 * The artifacts of running tasks, accumulated as their chunks are written, so the terminal claim
 * materialises them without reading back and parsing every chunk row (a 2,000-chunk stream:
 * ~6 ms of its ~50). The event log stays the source of truth: an entry is used only if it saw
 * every event of its task (created with the task, extended by each contiguous append, verified
 * against the row's lastSeq); otherwise the writer reads the log as before.
 *
 * Bounded: a task whose chunks pass MAX_TASK_BYTES, or a new one while all entries hold
 * MAX_TOTAL_BYTES, is dropped (and falls back to the log). An entry ends when its task leaves
 * `working` (input-required, or its end), so a task waiting for input holds nothing.
 */
import type { Artifact, ArtifactChunk } from '../protocol/types';
import { accumulateArtifacts } from '../protocol/artifacts';

const MAX_TASK_BYTES = 8 * 1024 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

/** An event as the writer stored it: `payload` is the JSON of `value`. */
export interface WrittenEvent {
  type: string;
  value: unknown;
  payload: string;
}

interface Entry {
  artifacts: Artifact[];
  /** Every event of the task up to this seq is reflected in `artifacts`. */
  coveredSeq: number;
  bytes: number;
}

export class RunningArtifacts {
  private readonly byTask = new Map<string, Entry>();
  private totalBytes = 0;

  /** A new task: its first events are seqs 1..n. */
  start(taskId: string, events: WrittenEvent[]): void {
    this.drop(taskId);
    if (this.totalBytes >= MAX_TOTAL_BYTES) return;
    const entry: Entry = { artifacts: [], coveredSeq: 0, bytes: 0 };
    this.byTask.set(taskId, entry);
    this.apply(taskId, entry, events);
  }

  /** Events appended after `afterSeq`. A gap (an append this cache did not see) ends the entry. */
  extend(taskId: string, afterSeq: number, events: WrittenEvent[]): void {
    const entry = this.byTask.get(taskId);
    if (!entry) return;
    if (entry.coveredSeq !== afterSeq) return this.drop(taskId);
    this.apply(taskId, entry, events);
  }

  /** The accumulated artifacts if they reflect every event up to `lastSeq`; ends the entry. */
  take(taskId: string, lastSeq: number): Artifact[] | undefined {
    const entry = this.byTask.get(taskId);
    this.drop(taskId);
    return entry && entry.coveredSeq === lastSeq ? entry.artifacts : undefined;
  }

  /** The entry's artifacts and the seq they reflect, without ending it (it may change them: drop it after). */
  peek(taskId: string): { artifacts: Artifact[]; coveredSeq: number } | undefined {
    const entry = this.byTask.get(taskId);
    return entry && { artifacts: entry.artifacts, coveredSeq: entry.coveredSeq };
  }

  /**
   * What a terminal claim appending `events` will leave, if this cache saw every event before it:
   * the artifacts with the claim's own chunks, and the row's lastSeq they hold for, so the claim
   * can store them (and the result text) in its own statement. Accumulating may change the entry:
   * drop it after the claim, whatever its outcome.
   */
  known(taskId: string, events: WrittenEvent[]): { artifacts: Artifact[]; lastSeq: number } | undefined {
    const cached = this.peek(taskId);
    if (!cached) return undefined;
    const chunks = events.filter((e) => e.type === 'artifact').map((e) => e.value as ArtifactChunk);
    return { artifacts: accumulateArtifacts(chunks, cached.artifacts), lastSeq: cached.coveredSeq + events.length };
  }

  drop(taskId: string): void {
    const entry = this.byTask.get(taskId);
    if (!entry) return;
    this.totalBytes -= entry.bytes;
    this.byTask.delete(taskId);
  }

  /** After a failed transaction nothing here can be trusted to match the database. */
  clear(): void {
    this.byTask.clear();
    this.totalBytes = 0;
  }

  get size(): number {
    return this.byTask.size;
  }

  private apply(taskId: string, entry: Entry, events: WrittenEvent[]): void {
    const chunks: ArtifactChunk[] = [];
    let bytes = 0;
    for (const event of events) {
      if (event.type !== 'artifact') continue;
      chunks.push(event.value as ArtifactChunk);
      bytes += event.payload.length;
    }
    entry.coveredSeq += events.length;
    if (!chunks.length) return;
    if (entry.bytes + bytes > MAX_TASK_BYTES) return this.drop(taskId);
    entry.bytes += bytes;
    this.totalBytes += bytes;
    entry.artifacts = accumulateArtifacts(chunks, entry.artifacts);
  }
}
