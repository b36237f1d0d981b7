/**
 * The porting rule between the two migration sets: every migration exists in both
 * prisma/migrations (SQLite) and prisma/migrations-postgresql under the same name, and after
 * applying each set the tables and columns are exactly the scalar fields of prisma/schema.prisma.
 * A branch that adds a SQLite migration (or a schema field) fails here until its PostgreSQL twin
 * exists. Also: two instances starting at once on one database migrate it once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { applyMigrations, migrationsDir } from '../../lib/db/sqlite/migrate';
import { applyPgMigrations, pgMigrationsDir } from '../../lib/db/postgres/migrate';
import { freshPgDatabase } from '../support/postgres';

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Float', 'Boolean', 'DateTime']);

/** model → its scalar columns, from prisma/schema.prisma. */
function schemaColumns(): Map<string, string[]> {
  const schema = fs.readFileSync(path.resolve('prisma/schema.prisma'), 'utf8');
  const models = new Map<string, string[]>();
  for (const [, name, body] of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const columns = body
      .split('\n')
      .map((line) => line.trim().match(/^(\w+)\s+(\w+)/))
      .filter((m): m is RegExpMatchArray => !!m && SCALARS.has(m[2]))
      .map((m) => m[1]);
    models.set(name, columns.sort());
  }
  return models;
}

const migrationNames = (dir: string) => fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

describe('the two migration sets', () => {
  it('have the same migration names', () => {
    expect(migrationNames(pgMigrationsDir())).toEqual(migrationNames(migrationsDir()));
  });

  it('SQLite: the tables are the schema models, with their columns', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-sync-')), 'sync.db');
    applyMigrations(file);
    const conn = new Database(file);
    for (const [model, columns] of schemaColumns()) {
      const actual = (conn.prepare(`PRAGMA table_info("${model}")`).all() as { name: string }[]).map((c) => c.name).sort();
      expect(actual, model).toEqual(columns);
    }
    conn.close();
  });

  it('PostgreSQL: the tables are the schema models, with their columns; concurrent starts migrate once', async () => {
    const url = await freshPgDatabase();
    const pools = [new pg.Pool({ connectionString: url }), new pg.Pool({ connectionString: url })];
    try {
      const applied = await Promise.all(pools.map((pool) => applyPgMigrations(pool)));
      expect(applied.flat().sort()).toEqual(migrationNames(pgMigrationsDir()));
      const { rows } = await pools[0].query<{ table_name: string; column_name: string }>(
        // Tables named "_…" (the migrations log, the task tallies) are lib/db's own, not models.
        'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = \'public\' AND table_name NOT LIKE \'\\_%\'',
      );
      const actual = new Map<string, string[]>();
      for (const r of rows) actual.set(r.table_name, [...(actual.get(r.table_name) ?? []), r.column_name].sort());
      expect(new Map([...actual].sort())).toEqual(new Map([...schemaColumns()].sort()));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});
