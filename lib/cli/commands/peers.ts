/** `switchboard peers ls|add|test|rm|import`. Secrets come from environment variables, never argv. */
import { Command } from 'commander';
import { z } from 'zod';
import { PeerListSchema, PeerOneSchema, PeerTestSchema, type PeerInput } from '../../dashboard/peer-wire';
import type { PeerAuthInput } from '../../protocol/peer-auth';
import { apiRequest, apiTarget, CliError } from '../api';
import { EXIT, type ExitCode } from '../exit-codes';
import { note, printJson, printTable, type CommonOptions } from '../output';
import { commandGroup, commonOptions, seconds } from './options';
import { peersImportCommand } from './peers-import';

type Exit = (code: ExitCode) => void;

const peerPath = (name: string) => `/api/peers/${encodeURIComponent(name)}`;

function ls(exit: Exit): Command {
  return commonOptions(new Command('ls').description('list peers')).action(async (opts: CommonOptions) => {
    const { peers } = await apiRequest(apiTarget(opts.url), '/api/peers', PeerListSchema);
    if (opts.json) printJson({ peers });
    else printTable([['NAME', 'SOURCE', 'AUTH', 'VERSION', 'URL'], ...peers.map((p) => [p.name, p.source, p.auth.type, p.card?.protocolVersion ?? '-', p.url])]);
    exit(EXIT.completed);
  });
}

interface AddOptions extends CommonOptions {
  tokenEnv?: string;
  keyEnv?: string;
  keyHeader: string;
  timeout?: number;
  notes?: string;
}

function secretFrom(variable: string, option: string): string {
  const value = process.env[variable];
  if (!value) throw new CliError(`${option}: environment variable ${variable} is not set`, EXIT.usage, 'missing_secret');
  return value;
}

function authOf(opts: AddOptions): PeerAuthInput {
  if (opts.tokenEnv && opts.keyEnv) throw new CliError('give --token-env or --key-env, not both', EXIT.usage, 'usage');
  if (opts.tokenEnv) return { type: 'bearer', token: secretFrom(opts.tokenEnv, '--token-env') };
  if (opts.keyEnv) return { type: 'apiKey', header: opts.keyHeader, key: secretFrom(opts.keyEnv, '--key-env') };
  return { type: 'none' };
}

function add(exit: Exit): Command {
  const cmd = new Command('add')
    .description('add a peer')
    .argument('<name>')
    .argument('<url>', 'where its agent card is found')
    .option('--token-env <VAR>', 'send the bearer token in this environment variable')
    .option('--key-env <VAR>', 'send the API key in this environment variable')
    .option('--key-header <name>', 'header for --key-env', 'X-API-Key')
    .option('--timeout <seconds>', "this peer's client timeout", seconds('--timeout'))
    .option('--notes <text>', 'free text');
  return commonOptions(cmd).action(async (name: string, url: string, opts: AddOptions) => {
    const body: PeerInput = { name, url, auth: authOf(opts), ...(opts.timeout ? { timeoutSeconds: opts.timeout } : {}), ...(opts.notes ? { notes: opts.notes } : {}) };
    const { peer, warnings } = await apiRequest(apiTarget(opts.url), '/api/peers', PeerOneSchema, { method: 'POST', body });
    for (const warning of warnings ?? []) note(`warning: ${warning}`);
    if (opts.json) printJson({ peer, ...(warnings ? { warnings } : {}) });
    else note(`added peer ${peer.name} (${peer.url}); check it with: switchboard peers test ${peer.name}`);
    exit(EXIT.completed);
  });
}

function test(exit: Exit): Command {
  return commonOptions(new Command('test').description("fetch the peer's agent card now").argument('<name>')).action(async (name: string, opts: CommonOptions) => {
    const result = await apiRequest(apiTarget(opts.url), `${peerPath(name)}/test`, PeerTestSchema, { method: 'POST', subject: `peer ${name}` });
    if (opts.json) printJson(result);
    else {
      printTable([
        ['peer', result.peer],
        ['reachable', result.reachable ? `yes (${Math.round(result.latencyMs)} ms)` : `no${result.error ? `: ${result.error}` : ''}`],
        ...(result.protocolVersion ? [['version', result.protocolVersion]] : []),
        ...(result.endpointUrl ? [['endpoint', result.endpointUrl]] : []),
        ...(result.skills?.length ? [['skills', result.skills.map((s) => s.id).join(', ')]] : []),
        ['timeout', `${result.timeoutSeconds} s (${result.timeoutSource})`],
        ...result.warnings.map((w) => ['warning', w]),
      ]);
    }
    exit(result.reachable ? EXIT.completed : EXIT.error);
  });
}

function rm(exit: Exit): Command {
  return commonOptions(new Command('rm').description('delete a peer').argument('<name>')).action(async (name: string, opts: CommonOptions) => {
    await apiRequest(apiTarget(opts.url), peerPath(name), z.undefined(), { method: 'DELETE', subject: `peer ${name}` });
    if (opts.json) printJson({ deleted: name });
    else process.stderr.write(`deleted peer ${name}\n`);
    exit(EXIT.completed);
  });
}

export function peersCommand(exit: Exit): Command {
  return commandGroup('peers', 'list, add, test, remove and import peers', [ls(exit), add(exit), test(exit), rm(exit), peersImportCommand(exit)]);
}
