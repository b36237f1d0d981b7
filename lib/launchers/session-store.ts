/**
 * Which contexts have a session to resume, for the process launcher's `resume` argv.
 *
 * Kept in memory only: after a restart every context starts a fresh agent session. That is a
 * deliberate trade: persisting ids would need a file format, locking and permissions for a
 * value the agent itself can recreate, and a lost session costs context, never a result.
 * Bounded (least recently used entries are dropped) so a hub serving many contexts stays small.
 */
export const MAX_SESSIONS = 10_000;

export interface StoredSession {
  /** Captured from output; absent when `resume` needs no id (it only uses {context_id}). */
  sessionId?: string;
}

export class SessionStore {
  private readonly entries = new Map<string, StoredSession>();

  constructor(private readonly capacity = MAX_SESSIONS) {}

  get(contextId: string): StoredSession | undefined {
    const entry = this.entries.get(contextId);
    if (entry) {
      // Map keeps insertion order: re-inserting marks the entry as most recently used.
      this.entries.delete(contextId);
      this.entries.set(contextId, entry);
    }
    return entry;
  }

  set(contextId: string, session: StoredSession): void {
    this.entries.delete(contextId);
    this.entries.set(contextId, session);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
