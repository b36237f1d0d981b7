/**
 * Inbound A2A API keys, on this machine's database (DATABASE_URL), for both `npm run keys` and
 * `switchboard keys`. The plain key is printed once at creation; only its hash is stored.
 * Creating and revoking are recorded in the audit log as the host's OS user (via `cli`).
 */
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys';
import { hostCliActor } from '../audit/audit-log';
import { changeKeyQuotas, QUOTA_NAMES, type QuotaName } from '../quotas/limits';
import { MAX_QUOTA } from '../config/settings';
import { EXIT, type ExitCode } from './exit-codes';

export const KEYS_USAGE = `create <name> | list | revoke <id> | quota <id> [${QUOTA_NAMES.map((n) => `${n}=<n|default>`).join(' ')}]`;

/** `requestsPerSecond=5 storedBytes=default` → the changes, or the first bad word named. */
function quotaChanges(words: readonly string[]): Partial<Record<QuotaName, number | null>> | string {
  const changes: Partial<Record<QuotaName, number | null>> = {};
  for (const word of words) {
    const [name, value] = word.split('=', 2);
    if (!(QUOTA_NAMES as readonly string[]).includes(name)) return `${word}: expected one of ${QUOTA_NAMES.join(', ')} (name=value)`;
    if (value === 'default') changes[name as QuotaName] = null;
    else if (value !== undefined && /^\d{1,10}$/.test(value) && Number(value) <= MAX_QUOTA) changes[name as QuotaName] = Number(value);
    else return `${word}: expected a whole number from 0 (no limit) to ${MAX_QUOTA}, or "default"`;
  }
  return changes;
}

async function runQuota(id: string, words: readonly string[], print: (value: unknown) => void, json: boolean): Promise<ExitCode> {
  const changes = quotaChanges(words);
  if (typeof changes === 'string') {
    console.error(`keys quota: ${changes}`);
    return EXIT.usage;
  }
  const quotas = await changeKeyQuotas(id, changes);
  if (!quotas) {
    if (json) print({ quotas: null });
    else console.log(`No key with id ${id}.`);
    return EXIT.notFound;
  }
  if (json) print({ id, quotas });
  else console.log(`Key ${id}: ${Object.keys(quotas).length ? JSON.stringify(quotas) : 'the default quotas'} (0 means no limit).`);
  return EXIT.completed;
}

export async function runKeys(command: string | undefined, arg: string | undefined, json = false, rest: readonly string[] = []): Promise<ExitCode> {
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  const actor = hostCliActor();
  if (command === 'create' && arg) {
    const { key, record } = await createApiKey(arg, 'agent', actor);
    if (json) print({ key, id: record.id, name: record.name });
    else {
      console.log(`Created API key "${record.name}" (id ${record.id}). It is shown only now:\n\n  ${key}\n`);
      console.log('Peers send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".');
    }
    return EXIT.completed;
  }
  if (command === 'list') {
    const keys = await listApiKeys();
    if (json) print({ keys });
    else for (const k of keys) console.log(`${k.id}  ${k.name}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}${k.quotas ? `  quotas ${k.quotas}` : ''}`);
    return EXIT.completed;
  }
  if (command === 'revoke' && arg) {
    const removed = await revokeApiKey(arg, actor);
    if (json) print({ revoked: removed ? arg : null });
    else console.log(removed ? `Revoked ${arg}.` : `No key with id ${arg}.`);
    return removed ? EXIT.completed : EXIT.notFound;
  }
  if (command === 'quota' && arg) return runQuota(arg, rest, print, json);
  console.error(`usage: keys ${KEYS_USAGE}`);
  return EXIT.usage;
}
