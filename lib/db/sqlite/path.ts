import path from 'node:path';

/** Maps DATABASE_URL (`file:./data/x.db`, a plain path, or `:memory:`) to a file path. */
export function sqliteFilePath(databaseUrl: string): string {
  if (databaseUrl === ':memory:' || databaseUrl === 'file::memory:') return ':memory:';
  if (/^(?!file:)[a-z][a-z0-9+.-]+:\/\//i.test(databaseUrl)) {
    throw new Error(`DATABASE_URL: expected file:<path> (SQLite) or postgres://... (PostgreSQL), got a ${databaseUrl.split(':')[0]} URL`);
  }
  const raw = databaseUrl.startsWith('file:') ? databaseUrl.slice('file:'.length) : databaseUrl;
  return path.resolve(process.cwd(), raw.split('?')[0]);
}
