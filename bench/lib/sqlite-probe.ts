/**
 * Read-only look into Switchboard's database from the bench process: proof that what the HTTP
 * answers claimed was really persisted (WAL mode lets us read while the server writes).
 */
import Database from 'better-sqlite3';

export function countRows(dbFile: string, sql: string, ...params: unknown[]): number {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(sql).get(...params) as Record<string, number>;
    return Object.values(row)[0];
  } finally {
    db.close();
  }
}

export function persistedCounts(dbFile: string, agentSlug: string) {
  return {
    tasks: countRows(dbFile, 'SELECT COUNT(*) AS n FROM "Task" WHERE "agentSlug" = ?', agentSlug),
    completed: countRows(dbFile, 'SELECT COUNT(*) AS n FROM "Task" WHERE "agentSlug" = ? AND "state" = \'completed\'', agentSlug),
    events: countRows(dbFile, 'SELECT COUNT(*) AS n FROM "TaskEvent" e JOIN "Task" t ON t."id" = e."taskId" WHERE t."agentSlug" = ?', agentSlug),
  };
}
