/**
 * prisma/schema.prisma and the SQL migrations (the ones lib/db/sqlite/migrate.ts applies) describe the
 * same database: every model is a table and every scalar field a column, with the same name,
 * type and nullability, and nothing more on either side. Prisma's queries are built from the
 * schema, so a migration that forgot a column would fail only at run time.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMigrations } from '../../lib/db/sqlite/migrate';

type Columns = Record<string, { type: string; nullable: boolean }>;

const SQL_TYPE: Record<string, string> = { String: 'TEXT', Int: 'INTEGER', BigInt: 'BIGINT', Boolean: 'BOOLEAN', DateTime: 'DATETIME', Float: 'REAL' };

/** Models and their scalar fields, read from the schema text (relation fields are skipped). */
function schemaModels(text: string): Record<string, Columns> {
  const models: Record<string, Columns> = {};
  for (const [, name, body] of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const columns: Columns = {};
    for (const line of body.split('\n')) {
      const m = /^\s*(\w+)\s+(\w+)(\[\])?(\?)?/.exec(line.replace(/\/\/.*$/, ''));
      if (!m || m[3] || !SQL_TYPE[m[2]]) continue;
      columns[m[1]] = { type: SQL_TYPE[m[2]], nullable: Boolean(m[4]) };
    }
    models[name] = columns;
  }
  return models;
}

function migratedTables(): Record<string, Columns> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-schema-')), 'schema.db');
  applyMigrations(file);
  const conn = new Database(file, { readonly: true });
  try {
    const names = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\'").all() as { name: string }[];
    return Object.fromEntries(
      names.map(({ name }) => {
        const cols = conn.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; type: string; notnull: number; pk: number }[];
        return [name, Object.fromEntries(cols.map((c) => [c.name, { type: c.type.toUpperCase(), nullable: c.notnull === 0 && c.pk === 0 }]))];
      }),
    );
  } finally {
    conn.close();
  }
}

describe('schema.prisma matches the SQL migrations', () => {
  it('has the same tables, columns, types and nullability', () => {
    const schema = schemaModels(fs.readFileSync(path.resolve('prisma/schema.prisma'), 'utf8'));
    expect(Object.keys(schema).length).toBeGreaterThan(5);
    expect(migratedTables()).toEqual(schema);
  });
});
