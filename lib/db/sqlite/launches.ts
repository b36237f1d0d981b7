/**
 * The launcher tables on SQLite: synchronous statements on the task writer's connection, outside
 * its group commit. A launched group's row must be on disk before the child gets its input, and
 * a synchronous statement never interleaves with the writer's transactions (they never span an
 * await).
 */
import type Database from 'better-sqlite3';
import { LAUNCHED_GROUP_COLUMNS, launchedGroupKey, launchedGroupValues, sessionStamp, toSession, type LaunchedGroupRow, type SessionRow, type SessionRowKey } from '../launch-rows';
import type { LaunchedGroupLedger, LauncherSessions } from '../store';

export function sqliteLaunchedGroups(conn: () => Database.Database): LaunchedGroupLedger {
  let stmts: { insert: Database.Statement; remove: Database.Statement; all: Database.Statement } | null = null;
  const prepared = () =>
    (stmts ??= {
      insert: conn().prepare(`INSERT OR REPLACE INTO "LaunchedGroup" (${LAUNCHED_GROUP_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)`),
      remove: conn().prepare('DELETE FROM "LaunchedGroup" WHERE "pgid" = ? AND "startTime" = ? AND "bootId" = ?'),
      all: conn().prepare(`SELECT ${LAUNCHED_GROUP_COLUMNS} FROM "LaunchedGroup" ORDER BY "createdAt"`),
    });
  return {
    add: (r) => void prepared().insert.run(...launchedGroupValues(r)),
    remove: (r) => void prepared().remove.run(...launchedGroupKey(r)),
    list: () => prepared().all.all() as LaunchedGroupRow[],
  };
}

const WHERE = '"agentSlug" = ? AND "owner" = ? AND "contextId" = ?';
const SESSION = {
  touch: `UPDATE "LauncherSession" SET "usedAt" = ? WHERE ${WHERE} RETURNING "sessionId"`,
  upsert:
    'INSERT INTO "LauncherSession" ("agentSlug","owner","contextId","sessionId","usedAt") VALUES (?,?,?,?,?) ' +
    'ON CONFLICT ("agentSlug","owner","contextId") DO UPDATE SET "sessionId" = excluded."sessionId", "usedAt" = excluded."usedAt"',
  trim: 'DELETE FROM "LauncherSession" WHERE rowid IN (SELECT rowid FROM "LauncherSession" WHERE "agentSlug" = ? ORDER BY "usedAt" DESC, rowid DESC LIMIT -1 OFFSET ?)',
};

/** Prepared once per store (the statements are the same for every capacity). */
export function sqliteLauncherSessions(conn: () => Database.Database): (capacity: number) => LauncherSessions {
  let stmts: Record<keyof typeof SESSION, Database.Statement> | null = null;
  const prepared = () => (stmts ??= { touch: conn().prepare(SESSION.touch), upsert: conn().prepare(SESSION.upsert), trim: conn().prepare(SESSION.trim) });
  return (capacity) => ({
    get: async (key: SessionRowKey) => toSession(prepared().touch.get(sessionStamp(), key.agent, key.owner, key.contextId) as SessionRow),
    set: async (key: SessionRowKey, session: { sessionId?: string }) => {
      prepared().upsert.run(key.agent, key.owner, key.contextId, session.sessionId ?? null, sessionStamp());
      prepared().trim.run(key.agent, capacity);
    },
  });
}
