/** `switchboard keys create|list|revoke|quota`: the local key store, loaded only when this command runs. */
import { Command } from 'commander';
import type { ExitCode } from '../exit-codes';

export function keysCommand(exit: (code: ExitCode) => void): Command {
  return new Command('keys')
    .description('inbound A2A API keys in this machine\'s database (DATABASE_URL), as npm run keys')
    .argument('<command>', 'create | list | revoke | quota')
    .argument('[arg]', 'the key name (create) or id (revoke, quota)')
    .argument('[limits...]', 'quota: requestsPerSecond=<n|default> openTasks=<n|default> storedBytes=<n|default> (0: no limit)')
    .option('--json', 'print one JSON document on stdout (for scripts)')
    .action(async (command: string, arg: string | undefined, limits: string[], opts: { json?: boolean }) => {
      // Prisma and the database open only for this command, never for the HTTP ones; the
      // migration log lines stay off stdout, which is the command's output.
      process.env.SWITCHBOARD_LOG_LEVEL ??= 'warn';
      const { runKeys } = await import('../keys');
      exit(await runKeys(command, arg, opts.json, limits));
    });
}
