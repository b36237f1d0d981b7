/**
 * The start-up checks that refuse a start (lib/app/switchboard.ts runs them in order): an
 * exposed bind without auth, unreadable card signing keys, a missing default agent.
 */
import { isLoopbackHost, type Settings } from '../config/settings';
import { countApiKeys } from '../db/key-repo';
import { refuseToStart } from '../runtime/refuse';

/** A bind beyond loopback needs inbound auth and a dashboard login. */
export async function checkExposure(settings: Settings): Promise<void> {
  if (isLoopbackHost(settings.host)) return;
  const missing: string[] = [];
  if ((await countApiKeys()) === 0 && !settings.oidc) missing.push('create an inbound API key (npm run keys -- create <name>) or set SWITCHBOARD_OIDC_ISSUERS');
  if (!settings.operatorToken) missing.push('set SWITCHBOARD_OPERATOR_TOKEN (dashboard login)');
  if (missing.length) refuseToStart(`HOST=${settings.host} is not a loopback address, so auth is required:\n  - ${missing.join('\n  - ')}`);
}
