/**
 * Start-up checks of the key for stored secrets. Every instance on one PostgreSQL
 * database must seal and open with the same key, so PostgreSQL requires SWITCHBOARD_SECRET_KEY
 * (a key file under ./data is per machine); and a stored secret that no accepted key opens means
 * this instance has another key than the one that sealed it: the start is refused, naming the
 * setting, instead of calling peers without their credentials and pushing without tokens.
 * Notification rows of versions before decision 179 lose their full webhook URLs here too.
 */
import { getSettings } from '../config/settings';
import { store } from '../db/store';
import { sealPeerSecretsAgain } from '../db/peer-repo';
import { sealPushSecretsAgain } from '../db/push-repo';
import { cutStoredTargetsToOrigin } from '../db/notification-repo';
import { log } from '../log';

const LISTED = 5;

/** Why this instance may not start with its key configuration, or null. */
export function secretKeyConfigProblem(): string | null {
  return store().membership.secretKeyProblem(getSettings().secretKey);
}

/**
 * Seals again what is not sealed with the current key (plaintext rows, rows sealed with
 * SWITCHBOARD_SECRET_KEY_PREVIOUS); returns why the start must be refused, or null.
 */
export async function checkStoredSecrets(): Promise<string | null> {
  const [peers, pushes, notificationTargets] = await Promise.all([sealPeerSecretsAgain(), sealPushSecretsAgain(), cutStoredTargetsToOrigin()]);
  if (peers.resealed || pushes.resealed) log.info('stored secrets sealed with the current key', { peers: peers.resealed, pushConfigs: pushes.resealed });
  if (notificationTargets) log.info('notification rows of an earlier version cut to their target origin', { rows: notificationTargets });
  const unreadable = [...peers.unreadable, ...pushes.unreadable];
  if (!unreadable.length) return null;
  const listed = unreadable.slice(0, LISTED).map((row) => `  - ${row}`);
  if (unreadable.length > LISTED) listed.push(`  - and ${unreadable.length - LISTED} more`);
  return [
    `${unreadable.length} stored secret(s) cannot be opened with this instance's key:`,
    ...listed,
    'They were sealed with another key. Set SWITCHBOARD_SECRET_KEY to the key that sealed them (on',
    'PostgreSQL: the same value as the other instances). To rotate keys, set the new key as',
    'SWITCHBOARD_SECRET_KEY and the old one as SWITCHBOARD_SECRET_KEY_PREVIOUS: stored secrets are',
    'sealed again with the new key at start-up. If the old key is lost, delete the peers and push',
    'configs listed (their credentials cannot be recovered) and create them again.',
  ].join('\n');
}
