// npm run keys -- create <name> | list | revoke <id>
// Inbound A2A API keys. The plain key is printed once at creation; only its hash is stored.
import { createApiKey, listApiKeys, revokeApiKey } from '../lib/auth/api-keys';

async function main(argv: string[]): Promise<number> {
  const [command, arg] = argv;
  if (command === 'create' && arg) {
    const { key, record } = await createApiKey(arg);
    console.log(`Created API key "${record.name}" (id ${record.id}). It is shown only now:\n\n  ${key}\n`);
    console.log('Peers send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".');
    return 0;
  }
  if (command === 'list') {
    for (const k of await listApiKeys()) console.log(`${k.id}  ${k.name}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}`);
    return 0;
  }
  if (command === 'revoke' && arg) {
    const removed = await revokeApiKey(arg);
    console.log(removed ? `Revoked ${arg}.` : `No key with id ${arg}.`);
    return removed ? 0 : 1;
  }
  console.error('usage: npm run keys -- create <name> | list | revoke <id>');
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`keys: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
