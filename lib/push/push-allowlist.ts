import { getSettings } from '../config/settings';
import { processSingleton } from '../process-singleton';
import { PushAllowlist } from './address-policy';

/** SWITCHBOARD_PUSH_ALLOWLIST, parsed once per process. */
export function pushAllowlist(): PushAllowlist {
  return processSingleton('push-allowlist', () => new PushAllowlist(getSettings().pushAllowlist));
}
