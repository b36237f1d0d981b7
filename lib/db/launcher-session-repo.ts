/**
 * The LauncherSession table: a `process` launcher's agent session id per (agent, owner,
 * context), so `resume` still works after a restart. At most `capacity` rows per agent; the
 * least recently used go first. Synchronous statements on the task writer's connection, as in
 * launched-group-repo.ts. Shaped like lib/launchers' SessionStore.
 */
import type Database from 'better-sqlite3';
import { sqliteTaskWriter } from './client';
import { sqliteTime } from './sqlite-writer';
import { processSingleton } from '../process-singleton';

export interface SessionRowKey {
  agent: string;
  owner: string;
  contextId: string;
}

class LauncherSessionRepo {
  private readonly stmts;
  private lastStamp = 0;

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

  /** Strictly increasing, so two uses in one millisecond still have an order. */
  private stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return sqliteTime(new Date(this.lastStamp));
  }

  get(key: SessionRowKey): { sessionId?: string } | undefined {
    const row = this.stmts.touch.get(this.stamp(), key.agent, key.owner, key.contextId) as { sessionId: string | null } | undefined;
    if (!row) return undefined;
    return row.sessionId === null ? {} : { sessionId: row.sessionId };
  }

  set(key: SessionRowKey, session: { sessionId?: string }, capacity: number): void {
    this.stmts.upsert.run(key.agent, key.owner, key.contextId, session.sessionId ?? null, this.stamp());
    this.stmts.trim.run(key.agent, capacity);
  }
}

const repo = () => processSingleton('launcher-session-repo', () => new LauncherSessionRepo(sqliteTaskWriter().conn));

/** The database session store of the served agents' process launchers. */
export function launcherSessionStore(capacity: number) {
  return {
    get: async (key: SessionRowKey) => repo().get(key),
    set: async (key: SessionRowKey, session: { sessionId?: string }) => repo().set(key, session, capacity),
  };
}
