/**
 * Inbound A2A API keys, on this machine's database (DATABASE_URL), for both `npm run keys` and
 * `switchboard keys`. The plain key is printed once at creation; only its hash is stored.
 * Creating and revoking are recorded in the audit log as the host's OS user (via `cli`).
 */
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys';
import { hostCliActor } from '../audit/audit-log';
import { EXIT, type ExitCode } from './exit-codes';

export const KEYS_USAGE = 'create <name> | list | revoke <id>';

export async function runKeys(command: string | undefined, arg: string | undefined, json = false): Promise<ExitCode> {
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
    else for (const k of keys) console.log(`${k.id}  ${k.name}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}`);
    return EXIT.completed;
  }
  if (command === 'revoke' && arg) {
    const removed = await revokeApiKey(arg, actor);
    if (json) print({ revoked: removed ? arg : null });
    else console.log(removed ? `Revoked ${arg}.` : `No key with id ${arg}.`);
    return removed ? EXIT.completed : EXIT.notFound;
  }
  console.error(`usage: keys ${KEYS_USAGE}`);
  return EXIT.usage;
}
