import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSERT_COLUMNS, PG_ENCODERS, SQLITE_ENCODERS, TASK_COLUMNS, insertValues, patchValue, toTaskRecord } from './task-columns';

/** The scalar fields of `model Task` in prisma/schema.prisma, with their Prisma types. */
function schemaColumns(): [string, string][] {
  const schema = fs.readFileSync(path.resolve(import.meta.dirname, '../../prisma/schema.prisma'), 'utf8');
  const body = schema.slice(schema.indexOf('model Task {'), schema.indexOf('\n}', schema.indexOf('model Task {')));
  return [...body.matchAll(/^\s+(\w+)\s+(String|Int|Boolean|DateTime)\??\s/gm)].map((m) => [m[1], m[2]]);
}

const CODECS_OF = { String: ['text', 'json'], Int: ['int'], Boolean: ['bool'], DateTime: ['time'] } as Record<string, string[]>;

describe('the task column table (where a new task column goes)', () => {
  it('names every column of the Task model, in order, with a codec that fits its type', () => {
    const columns = schemaColumns();
    expect(columns.length).toBeGreaterThan(20);
    expect(Object.keys(TASK_COLUMNS)).toEqual(columns.map(([name]) => name));
    for (const [name, type] of columns) expect(CODECS_OF[type], name).toContain(TASK_COLUMNS[name as keyof typeof TASK_COLUMNS].codec);
  });

  it('drives both writers: a new task’s values, and a patch, stored as each provider stores them', () => {
    const task = { id: 't1', contextId: 'c1', direction: 'inbound' as const, agentSlug: 'echo', state: 'working' as const, requestText: 'hi', metadata: { a: 1 } };
    const sqlite = insertValues(task, SQLITE_ENCODERS);
    expect(sqlite).toHaveLength(INSERT_COLUMNS.length);
    expect(sqlite[INSERT_COLUMNS.indexOf('metadata')]).toBe('{"a":1}');
    expect(sqlite[INSERT_COLUMNS.indexOf('peerName')]).toBeNull();
    expect(patchValue('detached', true, SQLITE_ENCODERS)).toBe(1);
    expect(patchValue('detached', true, PG_ENCODERS)).toBe(true);
    expect(patchValue('endedAt', new Date('2026-01-02T03:04:05.006Z'), PG_ENCODERS)).toBe('2026-01-02T03:04:05.006+00:00');
  });

  it('maps a raw row and a Prisma row to the same record (the one row mapper)', () => {
    const raw = { id: 't1', contextId: 'c1', direction: 'inbound', state: 'completed', requestText: 'hi', resultText: '', detached: 1, lastSeq: 3, statusMessage: '{"kind":"message"}', createdAt: '2026-01-02T03:04:05.006+00:00', updatedAt: '2026-01-02T03:04:05.006+00:00', endedAt: null };
    const prisma = { ...raw, detached: true, createdAt: new Date('2026-01-02T03:04:05.006Z'), updatedAt: new Date('2026-01-02T03:04:05.006Z') };
    const record = toTaskRecord(raw);
    expect(toTaskRecord(prisma)).toEqual(record);
    expect(record).toMatchObject({ detached: true, statusMessage: { kind: 'message' }, createdAt: '2026-01-02T03:04:05.006Z', endedAt: null, agentSlug: null });
  });
});
