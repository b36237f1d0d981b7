/** Which store DATABASE_URL selects: a postgres:// or postgresql:// URL is PostgreSQL, anything else a SQLite file. */
export type StoreKind = 'sqlite' | 'postgresql';

export function storeKind(databaseUrl: string): StoreKind {
  return /^postgres(ql)?:\/\//i.test(databaseUrl) ? 'postgresql' : 'sqlite';
}

/** The URL without its password, for logs and the health endpoint. */
export function redactedDatabaseUrl(databaseUrl: string): string {
  if (storeKind(databaseUrl) === 'sqlite') return databaseUrl;
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgresql://(unparsable URL)';
  }
}
