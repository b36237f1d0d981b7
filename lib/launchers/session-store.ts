/**
 * Which (agent, owner, context) has an agent session to resume, for the process launcher's
 * `resume` argv. The served agents use the database store (lib/db/launcher-session-repo.ts), so
 * a conversation survives a restart; the in-memory store is for launchers run without one
 * (tests, tools). Both keep at most MAX_SESSIONS per agent, least recently used dropped.
 */
export const MAX_SESSIONS = 10_000;

export interface StoredSession {
  /** Captured from output; absent when `resume` needs no id (it only uses {context_id}). */
  sessionId?: string;
}

export interface SessionKey {
  agent: string;
  /** The task owner (AgentTurn.owner): one caller never resumes another's session. */
  owner: string;
  contextId: string;
}

export interface SessionStore {
  /** The session, marked as just used; undefined if there is none. */
  get(key: SessionKey): Promise<StoredSession | undefined>;
  set(key: SessionKey, session: StoredSession): Promise<void>;
}

export class MemorySessionStore implements SessionStore {
  private readonly entries = new Map<string, StoredSession>();

  constructor(private readonly capacity = MAX_SESSIONS) {}

  async get(key: SessionKey): Promise<StoredSession | undefined> {
    const id = keyOf(key);
    const entry = this.entries.get(id);
    if (entry) {
      // Map keeps insertion order: re-inserting marks the entry as most recently used.
      this.entries.delete(id);
      this.entries.set(id, entry);
    }
    return entry;
  }

  async set(key: SessionKey, session: StoredSession): Promise<void> {
    const id = keyOf(key);
    this.entries.delete(id);
    this.entries.set(id, session);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

const keyOf = (key: SessionKey) => JSON.stringify([key.agent, key.owner, key.contextId]);
