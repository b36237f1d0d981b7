/**
 * The Task row's columns, once: how each is stored, whether a new task sets it, whether an event
 * batch may change it. Both writers build their INSERT and their guarded UPDATE from it
 * (sqlite/writer.ts, postgres/writer.ts), and the one row mapper (`toTaskRecord`) reads every
 * row with it, whether a writer returned it, the hot-path reader read it or Prisma did.
 *
 * Adding a task column takes three places: the database (prisma/schema.prisma and a migration in
 * prisma/migrations and prisma/migrations-postgresql), the types (TaskRecord, and NewTask or
 * TaskPatch if it is set, in task-records.ts), and one entry here. The compiler asks for the
 * entry (TASK_COLUMNS covers TaskRecord, `patch` every key of TaskPatch), and
 * lib/db/task-columns.test.ts compares it with the schema.
 */
import { sqliteTime } from './task-store';
import type { NewTask, TaskPatch, TaskRecord } from './task-records';

/** How a column is stored: text, JSON text, a boolean (SQLite: 0/1), a time (the writer's text format), an integer. */
export type Codec = 'text' | 'json' | 'bool' | 'time' | 'int';

type ColumnSpec<K extends keyof TaskRecord> = { codec: Codec } & (K extends keyof NewTask ? { insert?: true } : { insert?: never }) &
  (K extends keyof TaskPatch ? { patch: true } : { patch?: never });

/** Every column of Task, in the table's order. `insert`: a new task sets it (from NewTask); `patch`: an event batch may change it. */
export const TASK_COLUMNS: { [K in keyof TaskRecord]: ColumnSpec<K> } = {
  id: { codec: 'text', insert: true },
  contextId: { codec: 'text', insert: true },
  direction: { codec: 'text', insert: true },
  agentSlug: { codec: 'text', insert: true },
  peerName: { codec: 'text', insert: true },
  peerUrl: { codec: 'text', insert: true, patch: true },
  remoteTaskId: { codec: 'text', patch: true },
  owner: { codec: 'text', insert: true },
  ownerName: { codec: 'text', insert: true },
  state: { codec: 'text', insert: true, patch: true },
  statusMessage: { codec: 'json', patch: true },
  requestText: { codec: 'text', insert: true },
  resultText: { codec: 'text', patch: true },
  detached: { codec: 'bool', patch: true },
  detachedAt: { codec: 'time', patch: true },
  endReason: { codec: 'text', patch: true },
  lastSeq: { codec: 'int' },
  metadata: { codec: 'json', insert: true, patch: true },
  follow: { codec: 'json', insert: true, patch: true },
  traceContext: { codec: 'json', insert: true },
  parentTaskId: { codec: 'text', insert: true },
  createdAt: { codec: 'time' },
  updatedAt: { codec: 'time' },
  endedAt: { codec: 'time', patch: true },
};

type Column = keyof TaskRecord;
const entries = Object.entries(TASK_COLUMNS) as [Column, { codec: Codec; insert?: true; patch?: true }][];

/** The columns a new task sets, in order (the writers add lastSeq, createdAt and updatedAt). */
export const INSERT_COLUMNS = entries.filter(([, spec]) => spec.insert).map(([name]) => name as keyof NewTask & Column);

/** A value as one provider stores it; only booleans differ (SQLite has none). */
export type Encoders = Record<Codec, (v: unknown) => unknown>;

const shared = {
  text: (v: unknown) => v ?? null,
  json: (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v)),
  time: (v: unknown) => (v ? sqliteTime(v as Date) : null),
  int: (v: unknown) => v,
};
export const SQLITE_ENCODERS: Encoders = { ...shared, bool: (v) => (v ? 1 : 0) };
export const PG_ENCODERS: Encoders = { ...shared, bool: (v) => Boolean(v) };

/** A new task's insert values, in INSERT_COLUMNS order. */
export const insertValues = (task: NewTask, encode: Encoders): unknown[] => INSERT_COLUMNS.map((name) => encode[TASK_COLUMNS[name].codec](task[name]));

/** A patched column's stored value. */
export const patchValue = (key: keyof TaskPatch, value: unknown, encode: Encoders): unknown => encode[TASK_COLUMNS[key].codec](value);

/** SQLite text time → ISO. The writer's own format (sqliteTime) converts without a Date parse; Prisma gives Dates. */
const WRITER_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
export const isoTime = (v: unknown): string | null => {
  if (v instanceof Date) return v.toISOString();
  if (typeof v !== 'string') return null;
  return WRITER_TIME.test(v) ? `${v.slice(0, 23)}Z` : new Date(v).toISOString();
};

const DECODERS: Record<Codec, (v: unknown) => unknown> = {
  text: (v) => v ?? null,
  json: (v) => (v === null || v === undefined ? null : JSON.parse(v as string)),
  bool: (v) => v === 1 || v === true,
  time: isoTime,
  int: (v) => v,
};
const decoders = entries.map(([name, spec]) => [name, DECODERS[spec.codec]] as const);

/** The one row mapper: a Task row (either provider's, raw or through Prisma) as a TaskRecord. */
export function toTaskRecord(row: Record<string, unknown>): TaskRecord {
  const record: Record<string, unknown> = {};
  for (const [name, decode] of decoders) record[name] = decode(row[name]);
  return record as unknown as TaskRecord;
}
