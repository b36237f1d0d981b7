/**
 * The wake-up notifications between instances on one PostgreSQL database. The event table is the
 * truth; a notification only says "task T has events up to seq N (from seq M)", so a reader that
 * misses one reads the same events later from the table. One NOTIFY per group commit, sent in
 * its transaction (PostgreSQL delivers it at commit, so never before the rows are visible), with
 * tiny text payloads: NOTIFY takes a global lock at commit, and its payload is capped at 8000 bytes.
 */
import type pg from 'pg';
import type { WriteResult } from '../task-store';

export const EVENTS_CHANNEL = 'switchboard_events';
const MAX_PAYLOAD = 7_000;

export interface TaskSeqRange {
  taskId: string;
  fromSeq: number;
  toSeq: number;
}

/** `instance\ntask from to\n…`, split so that each payload stays under the limit. */
export function notifyPayloads(instance: string, ranges: TaskSeqRange[]): string[] {
  const payloads: string[] = [];
  let current = instance;
  for (const r of ranges) {
    const line = `\n${r.taskId} ${r.fromSeq} ${r.toSeq}`;
    if (current.length + line.length > MAX_PAYLOAD) {
      payloads.push(current);
      current = instance;
    }
    current += line;
  }
  if (current !== instance) payloads.push(current);
  return payloads;
}

export function parseNotifyPayload(payload: string): { instance: string; ranges: TaskSeqRange[] } {
  const [instance, ...lines] = payload.split('\n');
  const ranges = lines.map((line) => {
    const [taskId, from, to] = line.split(' ');
    return { taskId, fromSeq: Number(from), toSeq: Number(to) };
  });
  return { instance, ranges: ranges.filter((r) => r.taskId && Number.isInteger(r.fromSeq) && Number.isInteger(r.toSeq)) };
}

/** The task seq ranges a batch of committed writes appended (null: a failed guard, nothing written). */
export function writtenRanges(values: unknown[]): TaskSeqRange[] {
  const ranges: TaskSeqRange[] = [];
  for (const value of values) {
    const written = value as WriteResult | null;
    if (!written || written.events.length === 0) continue;
    ranges.push({ taskId: written.row.id as string, fromSeq: written.events[0].seq, toSeq: written.events[written.events.length - 1].seq });
  }
  return ranges;
}

/** The NOTIFY statements for a batch of writes, sent in its transaction (with its COMMIT). */
export function notifyStatements(instance: string, values: unknown[]): pg.QueryConfig[] {
  return notifyPayloads(instance, writtenRanges(values)).map((payload) => ({ name: 'sb_notify', text: 'SELECT pg_notify($1, $2)', values: [EVENTS_CHANNEL, payload] }));
}
