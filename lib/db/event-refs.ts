/**
 * Chunk references in the event log (docs/decisions.md 420). A relay passes its child's artifact
 * chunks on to the caller's task unchanged; instead of a second copy of each chunk, the caller's
 * log stores ONE row per run of chunks that names the child's rows holding them (the child's
 * task id, its first seq, how many). The caller's seqs stay one per chunk: the reference row
 * takes the LAST seq of its run and the run's chunks are seqs `seq - count + 1 … seq`, so a read
 * after any seq (`seq > afterSeq`) finds the row of every run it reaches into, and the readers
 * (sqlite/reader.ts, postgres/reader.ts, both writers' log reads) expand it into the chunks with
 * the caller's seqs before anything above lib/db sees a row. Published events, outbox rows, the
 * output meter and the owner's stored-bytes charge see the chunks as before (the writer's
 * result holds them, not the reference).
 *
 * Only a relay marks chunks (markChunkRow), and only with rows of its own child: the task
 * pruner keeps a child while its parent's log holds a reference (task-pruner.ts).
 */
import { processSingleton } from '../process-singleton';
import type { RawEventRow, SerializedEvent } from './task-store';

/** The stored type of a reference row; never leaves lib/db. */
export const CHUNK_REF_TYPE = 'artifact-ref';

/** A committed row holding a chunk: the task and its seq there. */
export interface ChunkRow {
  taskId: string;
  seq: number;
}

/** What a reference row's payload says: the child's rows `from … from + count - 1`. */
export interface ChunkRef {
  task: string;
  from: number;
  count: number;
}

/** A row to insert: its seq is the change's base plus `offset`. */
export interface LogRow {
  offset: number;
  type: string;
  state: string | null;
  payload: string;
}

/**
 * The committed row each chunk object came from, by object (as eventJson's map: one per process,
 * since the writer and the relay can be reached through different module copies).
 */
const chunkRows = processSingleton('chunkRows', () => new WeakMap<object, ChunkRow>());

/** The chunk object is the payload of this committed row (a relay passes it on unchanged). */
export function markChunkRow(chunk: object, row: ChunkRow): void {
  chunkRows.set(chunk, row);
}

/** Where a serialised event's chunk is already stored, if a relay said so. */
export const chunkRowOf = (event: Pick<SerializedEvent, 'type' | 'value'>): ChunkRow | undefined =>
  event.type === 'artifact' && typeof event.value === 'object' && event.value !== null ? chunkRows.get(event.value) : undefined;

/**
 * The rows to store for a change's events: each run of consecutive chunks stored at consecutive
 * rows of one other task becomes one reference row at the run's last offset; every other event
 * is its own row. Offsets are 1-based within the change.
 */
export function logRows(events: readonly SerializedEvent[]): LogRow[] {
  const rows: LogRow[] = [];
  let run: { ref: ChunkRef; end: number } | null = null;
  const closeRun = () => {
    if (run) rows.push({ offset: run.end, type: CHUNK_REF_TYPE, state: null, payload: JSON.stringify(run.ref) });
    run = null;
  };
  events.forEach((event, i) => {
    const source = chunkRowOf(event);
    if (source && run && run.ref.task === source.taskId && run.ref.from + run.ref.count === source.seq) {
      run.ref.count++;
      run.end = i + 1;
      return;
    }
    closeRun();
    if (source) run = { ref: { task: source.taskId, from: source.seq, count: 1 }, end: i + 1 };
    else rows.push({ offset: i + 1, type: event.type, state: event.state, payload: event.payload });
  });
  closeRun();
  return rows;
}

export const isChunkRef = (row: Pick<RawEventRow, 'type'>): boolean => row.type === CHUNK_REF_TYPE;

export const chunkRefOf = (row: Pick<RawEventRow, 'payload'>): ChunkRef => JSON.parse(row.payload) as ChunkRef;

/** The type filter of a read, with reference rows wherever artifacts are asked for. */
export const withRefType = (types: readonly string[]): string[] => (types.includes('artifact') ? [...types, CHUNK_REF_TYPE] : [...types]);

/** A range of a task's rows that reference rows name (the reads that expand them). */
export interface RowRange {
  taskId: string;
  from: number;
  to: number;
}

/** The ranges of other tasks' rows the reference rows among `rows` name. */
export function refRanges(rows: readonly Pick<RawEventRow, 'type' | 'payload'>[]): RowRange[] {
  return rows.filter(isChunkRef).map((row) => {
    const ref = chunkRefOf(row);
    return { taskId: ref.task, from: ref.from, to: ref.from + ref.count - 1 };
  });
}

const rowKey = (taskId: string, seq: number) => `${seq}:${taskId}`;

/**
 * `rows` (one task's or several, each after its cursor) with every reference row replaced by the
 * chunks it names that come after `afterSeq(taskId)`, with the referencing task's id and seqs.
 * `referenced` holds the rows of every range refRanges gave. A named row that is missing means
 * the log is broken: thrown, never skipped (a gap would be silent).
 */
export function expandRefs(rows: RawEventRow[], referenced: readonly RawEventRow[], afterSeq: (taskId: string) => number): RawEventRow[] {
  if (!rows.some(isChunkRef)) return rows;
  const byKey = new Map(referenced.map((r) => [rowKey(r.taskId, r.seq), r]));
  return rows.flatMap((row): RawEventRow[] => {
    if (!isChunkRef(row)) return [row];
    const ref = chunkRefOf(row);
    const first = row.seq - ref.count + 1;
    const skip = Math.max(0, afterSeq(row.taskId) + 1 - first);
    const out: RawEventRow[] = [];
    for (let i = skip; i < ref.count; i++) {
      const chunk = byKey.get(rowKey(ref.task, ref.from + i));
      if (!chunk) throw new Error(`event log of task ${row.taskId}: seq ${first + i} names row ${ref.from + i} of task ${ref.task}, which is gone`);
      out.push({ taskId: row.taskId, seq: first + i, type: chunk.type, state: chunk.state, payload: chunk.payload, at: row.at });
    }
    return out;
  });
}
