/**
 * This process's instance id: names the instance in notifications (so it skips its own), in
 * leases and in the health endpoint. SWITCHBOARD_INSTANCE_ID sets it; by default it is the host
 * name and port, so a restarted process is the same instance and recovers its own turns at once
 * (`interrupted: restart`), while another instance's turns wait for its lease to expire.
 */
import os from 'node:os';
import { getSettings } from '../config/settings';
import { appPart } from '../process-singleton';

/** This instance's name in outbox rows and leases. The app's: every bundle must write the same name. */
export function instanceId(): string {
  return appPart('instanceId', () => getSettings().instanceId ?? `${os.hostname()}:${getSettings().port}`);
}

declare module '../process-singleton' {
  interface AppParts {
    /** This instance's name. */
    instanceId: string;
  }
}
