import path from 'node:path';

/** Maps DATABASE_URL (`file:./data/x.db`, a plain path, or `:memory:`) to a file path. */
export function sqliteFilePath(databaseUrl: string): string {
  if (databaseUrl === ':memory:' || databaseUrl === 'file::memory:') return ':memory:';
  if (/^(postgres|postgresql|mysql):/i.test(databaseUrl)) {
    throw new Error(
      `DATABASE_URL: this build stores data in SQLite; expected file:<path>, got a ${databaseUrl.split(':')[0]} URL`,
    );
  }
  const raw = databaseUrl.startsWith('file:') ? databaseUrl.slice('file:'.length) : databaseUrl;
  return path.resolve(process.cwd(), raw.split('?')[0]);
}
