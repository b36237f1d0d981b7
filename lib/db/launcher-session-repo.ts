/**
 * The LauncherSession table: a `process` launcher's agent session id per (agent, owner,
 * context), so `resume` still works after a restart. At most `capacity` rows per agent; the
 * least recently used go first (sqlite/launches.ts, postgres/launches.ts). Shaped like
 * lib/launchers' SessionStore.
 */
import { store } from './store';

export type { SessionRowKey } from './launch-rows';

/** The database session store of the served agents' process launchers. */
export function launcherSessionStore(capacity: number) {
  return store().launcherSessions(capacity);
}
