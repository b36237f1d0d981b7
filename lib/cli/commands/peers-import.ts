/**
 * `switchboard peers import --from hermes [path]`: Hermes's `a2a_agents` as Switchboard peers,
 * through the running Switchboard's API (POST /api/peer-import), which seals the secrets and
 * compares them, so a re-run changes nothing and no token is ever printed.
 * Exit codes: 0 every entry imported (or unchanged; with --dry-run: could be), 1 some entry
 * refused or the API refused the request, 2 bad usage or an unreadable / unusable file, 3 and 4
 * as for every command.
 */
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { Command, Option } from 'commander';
import { z } from 'zod';
import { apiRequest, apiTarget, CliError } from '../api';
import { EXIT, type ExitCode } from '../exit-codes';
import { hermesPeerEntries, HermesConfigError, type HermesPeerEntry } from '../hermes-peers';
import { printJson, type CommonOptions } from '../output';
import { commonOptions } from './options';

type Exit = (code: ExitCode) => void;

/** Hermes's own config files are small; anything past this is not one. */
const MAX_CONFIG_BYTES = 1024 * 1024;

const ImportAnswerSchema = z.object({
  dryRun: z.boolean(),
  results: z.array(z.object({ name: z.string(), action: z.enum(['created', 'updated', 'unchanged', 'refused']), changes: z.array(z.string()), error: z.string().optional() })),
});

const IMPORT_HELP = `
Each a2a_agents key becomes a peer of that name (url, auth bearer token, timeout → client timeout,
headers); fields Switchboard does not use are listed. Re-running changes nothing.
Exit codes: 0 all imported (or already equal)   1 some entry not imported (the rest are)
  2 bad usage, or a file that is missing, not YAML or has no a2a_agents   3 unreachable   4 token refused`;

interface ImportOptions extends CommonOptions {
  from: 'hermes';
  dryRun?: boolean;
}

export interface ImportedPeer {
  key: string;
  action: 'created' | 'updated' | 'unchanged' | 'refused';
  changes: string[];
  ignored: string[];
  error?: string;
}

export function peersImportCommand(exit: Exit): Command {
  const cmd = new Command('import')
    .description("create or update peers from another tool's peer list (secrets are sent to the Switchboard, never printed)")
    .addOption(new Option('--from <tool>', 'whose peer list').choices(['hermes']).makeOptionMandatory())
    .argument('[path]', 'the file to read (hermes: ~/.hermes/config.yaml, or $HERMES_HOME/config.yaml)')
    .option('--dry-run', 'show what would change, change nothing')
    .addHelpText('after', IMPORT_HELP);
  return commonOptions(cmd).action(async (file: string | undefined, opts: ImportOptions) => {
    const source = file ?? defaultHermesConfig();
    const entries = parseEntries(await readConfig(source), source);
    const imported = await send(entries, opts);
    report(source, imported, opts);
    exit(imported.some((p) => p.action === 'refused') ? EXIT.error : EXIT.completed);
  });
}

function defaultHermesConfig(): string {
  const home = process.env.HERMES_HOME?.trim() || path.join(homedir(), '.hermes');
  return path.join(home, 'config.yaml');
}

async function readConfig(file: string): Promise<string> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError(`${file}: not a file`, EXIT.usage, 'bad_file');
    if (info.size > MAX_CONFIG_BYTES) throw new CliError(`${file}: ${info.size} bytes, more than a Hermes config (limit ${MAX_CONFIG_BYTES})`, EXIT.usage, 'bad_file');
    return await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give the path of Hermes's config.yaml`, EXIT.usage, 'bad_file');
  }
}

function parseEntries(text: string, source: string): HermesPeerEntry[] {
  try {
    return hermesPeerEntries(text, source);
  } catch (err) {
    if (err instanceof HermesConfigError) throw new CliError(err.message, EXIT.usage, 'bad_file');
    throw err;
  }
}

/** Entries refused here never reach the server; the rest go in one request, in file order. */
async function send(entries: HermesPeerEntry[], opts: ImportOptions): Promise<ImportedPeer[]> {
  const sendable = entries.filter((e) => e.peer);
  const answer = sendable.length
    ? await apiRequest(apiTarget(opts.url), '/api/peer-import', ImportAnswerSchema, { method: 'POST', body: { peers: sendable.map((e) => e.peer), dryRun: Boolean(opts.dryRun) } })
    : { dryRun: Boolean(opts.dryRun), results: [] };
  const byName = new Map(answer.results.map((r) => [r.name, r]));
  return entries.map((entry) => {
    if (!entry.peer) return { key: entry.key, action: 'refused', changes: [], ignored: entry.ignored, error: entry.refusal };
    const result = byName.get(entry.peer.name) ?? { action: 'refused' as const, changes: [], error: 'the Switchboard gave no answer for this entry' };
    return { key: entry.key, action: result.action, changes: result.changes, ignored: entry.ignored, ...(result.error ? { error: result.error } : {}) };
  });
}

const VERB = { created: ['created', 'would create'], updated: ['updated', 'would update'], unchanged: ['unchanged', 'unchanged'], refused: ['not imported', 'cannot import'] } as const;

function report(source: string, imported: ImportedPeer[], opts: ImportOptions): void {
  const changed = imported.filter((p) => p.action === 'created' || p.action === 'updated').length;
  if (opts.json) {
    printJson({ source, dryRun: Boolean(opts.dryRun), changed, peers: imported });
    return;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  for (const p of imported) {
    const verb = VERB[p.action][opts.dryRun ? 1 : 0];
    const detail = p.action === 'refused' ? `: ${p.error}` : p.changes.length && p.action === 'updated' ? ` (${p.changes.join(', ')})` : '';
    out(`${verb} ${p.key}${detail}`);
    for (const field of p.ignored) out(`  not used: ${field}`);
  }
  if (!imported.length) out(`${source}: a2a_agents is empty; nothing to import`);
  else if (!changed) out(opts.dryRun ? 'nothing would change' : 'nothing changed: the peers already match');
  else if (opts.dryRun) out(`${changed} peer${changed > 1 ? 's' : ''} would change; run again without --dry-run to apply`);
}
