/**
 * The LauncherSession table: a `process` launcher's agent session id per (agent, owner,
 * context), so `resume` still works after a restart. At most `capacity` rows per agent; the
 * least recently used go first. On SQLite synchronous statements on the task writer's
 * connection, as in launched-group-repo.ts; on PostgreSQL the same statements on the pool.
 * Shaped like lib/launchers' SessionStore.
 */
import type Database from 'better-sqlite3';
import { currentStore, pgQuery, sqliteTaskWriter } from './client';
import { sqliteTime } from './sqlite-writer';
import { processSingleton } from '../process-singleton';

export interface SessionRowKey {
  agent: string;
  owner: string;
  contextId: string;
}

type SessionRow = { sessionId: string | null } | undefined;
const toSession = (row: SessionRow) => (row ? (row.sessionId === null ? {} : { sessionId: row.sessionId }) : undefined);

/** Strictly increasing, so two uses in one millisecond still have an order. */
let lastStamp = 0;
function stamp(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return sqliteTime(new Date(lastStamp));
}

class LauncherSessionRepo {
  private readonly stmts;

  constructor(conn: Database.Database) {
    const where = '"agentSlug" = ? AND "owner" = ? AND "contextId" = ?';
    this.stmts = {
      touch: conn.prepare(`UPDATE "LauncherSession" SET "usedAt" = ? WHERE ${where} RETURNING "sessionId"`),
      upsert: conn.prepare(
        'INSERT INTO "LauncherSession" ("agentSlug","owner","contextId","sessionId","usedAt") VALUES (?,?,?,?,?) ' +
          'ON CONFLICT ("agentSlug","owner","contextId") DO UPDATE SET "sessionId" = excluded."sessionId", "usedAt" = excluded."usedAt"',
      ),
      trim: conn.prepare(
        'DELETE FROM "LauncherSession" WHERE rowid IN (SELECT rowid FROM "LauncherSession" WHERE "agentSlug" = ? ORDER BY "usedAt" DESC, rowid DESC LIMIT -1 OFFSET ?)',
      ),
    };
  }

  get(key: SessionRowKey): { sessionId?: string } | undefined {
    return toSession(this.stmts.touch.get(stamp(), key.agent, key.owner, key.contextId) as SessionRow);
  }

  set(key: SessionRowKey, session: { sessionId?: string }, capacity: number): void {
    this.stmts.upsert.run(key.agent, key.owner, key.contextId, session.sessionId ?? null, stamp());
    this.stmts.trim.run(key.agent, capacity);
  }
}

const PG = {
  touch: 'UPDATE "LauncherSession" SET "usedAt" = $1 WHERE "agentSlug" = $2 AND "owner" = $3 AND "contextId" = $4 RETURNING "sessionId"',
  // The upsert and the trim in one statement: the trim sees the table as before it, so it keeps one row fewer.
  setAndTrim: `WITH up AS (
      INSERT INTO "LauncherSession" ("agentSlug","owner","contextId","sessionId","usedAt") VALUES ($1,$2,$3,$4,$5)
      ON CONFLICT ("agentSlug","owner","contextId") DO UPDATE SET "sessionId" = EXCLUDED."sessionId", "usedAt" = EXCLUDED."usedAt")
    DELETE FROM "LauncherSession" WHERE ("agentSlug","owner","contextId") IN (
      SELECT "agentSlug","owner","contextId" FROM "LauncherSession"
      WHERE "agentSlug" = $1 AND NOT ("owner" = $2 AND "contextId" = $3) ORDER BY "usedAt" DESC OFFSET $6)`,
};

const pgSessions = {
  get: async (key: SessionRowKey) => toSession((await pgQuery<{ sessionId: string | null }>(PG.touch, [stamp(), key.agent, key.owner, key.contextId])).rows[0]),
  set: async (key: SessionRowKey, session: { sessionId?: string }, capacity: number) => {
    await pgQuery(PG.setAndTrim, [key.agent, key.owner, key.contextId, session.sessionId ?? null, stamp(), Math.max(0, capacity - 1)]);
  },
};

const repo = () => processSingleton('launcher-session-repo', () => new LauncherSessionRepo(sqliteTaskWriter().conn));

/** The database session store of the served agents' process launchers. */
export function launcherSessionStore(capacity: number) {
  if (currentStore() === 'postgresql') return { get: pgSessions.get, set: (key: SessionRowKey, session: { sessionId?: string }) => pgSessions.set(key, session, capacity) };
  return {
    get: async (key: SessionRowKey) => repo().get(key),
    set: async (key: SessionRowKey, session: { sessionId?: string }) => repo().set(key, session, capacity),
  };
}
