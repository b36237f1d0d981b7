import { getSettings } from '../config/settings';
import { appPart } from '../process-singleton';
import { PushAllowlist } from './address-policy';

/** SWITCHBOARD_PUSH_ALLOWLIST, parsed once per app. */
export function pushAllowlist(): PushAllowlist {
  return appPart('pushAllowlist', () => new PushAllowlist(getSettings().pushAllowlist));
}

declare module '../process-singleton' {
  interface AppParts {
    /** Webhook hosts allowed despite the SSRF guard. */
    pushAllowlist: PushAllowlist;
  }
}
