/**
 * The launcher tables on PostgreSQL: the statements of sqlite/launches.ts on the pool, as
 * promises; the launcher hands a child nothing until its group's row is committed
 * (ProcessGroup.recorded).
 */
import { LAUNCHED_GROUP_COLUMNS, launchedGroupKey, launchedGroupValues, sessionStamp, toSession, type LaunchedGroupRow, type SessionRowKey } from '../launch-rows';
import type { LaunchedGroupLedger, LauncherSessions } from '../store';
import type { PgQuery } from './store';

const GROUP = {
  insert: `INSERT INTO "LaunchedGroup" (${LAUNCHED_GROUP_COLUMNS},"createdAt") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,CURRENT_TIMESTAMP)
    ON CONFLICT ("pgid","startTime","bootId") DO UPDATE SET "host" = EXCLUDED."host", "hubPid" = EXCLUDED."hubPid",
      "hubStartTime" = EXCLUDED."hubStartTime", "agentSlug" = EXCLUDED."agentSlug", "kind" = EXCLUDED."kind",
      "killGraceMs" = EXCLUDED."killGraceMs", "createdAt" = EXCLUDED."createdAt"`,
  remove: 'DELETE FROM "LaunchedGroup" WHERE "pgid" = $1 AND "startTime" = $2 AND "bootId" = $3',
  all: `SELECT ${LAUNCHED_GROUP_COLUMNS} FROM "LaunchedGroup" ORDER BY "createdAt"`,
};

export function pgLaunchedGroups(query: PgQuery): LaunchedGroupLedger {
  return {
    add: (r) => query(GROUP.insert, launchedGroupValues(r)).then(() => undefined),
    remove: (r) => query(GROUP.remove, launchedGroupKey(r)).then(() => undefined),
    list: () => query<LaunchedGroupRow>(GROUP.all).then((r) => r.rows),
  };
}

const SESSION = {
  touch: 'UPDATE "LauncherSession" SET "usedAt" = $1 WHERE "agentSlug" = $2 AND "owner" = $3 AND "contextId" = $4 RETURNING "sessionId"',
  // The upsert and the trim in one statement: the trim sees the table as before it, so it keeps one row fewer.
  setAndTrim: `WITH up AS (
      INSERT INTO "LauncherSession" ("agentSlug","owner","contextId","sessionId","usedAt") VALUES ($1,$2,$3,$4,$5)
      ON CONFLICT ("agentSlug","owner","contextId") DO UPDATE SET "sessionId" = EXCLUDED."sessionId", "usedAt" = EXCLUDED."usedAt")
    DELETE FROM "LauncherSession" WHERE ("agentSlug","owner","contextId") IN (
      SELECT "agentSlug","owner","contextId" FROM "LauncherSession"
      WHERE "agentSlug" = $1 AND NOT ("owner" = $2 AND "contextId" = $3) ORDER BY "usedAt" DESC OFFSET $6)`,
};

export function pgLauncherSessions(query: PgQuery): (capacity: number) => LauncherSessions {
  return (capacity) => ({
    get: async (key: SessionRowKey) => toSession((await query<{ sessionId: string | null }>(SESSION.touch, [sessionStamp(), key.agent, key.owner, key.contextId])).rows[0]),
    set: async (key: SessionRowKey, session: { sessionId?: string }) => {
      await query(SESSION.setAndTrim, [key.agent, key.owner, key.contextId, session.sessionId ?? null, sessionStamp(), Math.max(0, capacity - 1)]);
    },
  });
}
