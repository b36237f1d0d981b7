/** `switchboard dispatch <peer|url> "<text>"`: send through the running Switchboard, optionally follow. */
import { Command, Option } from 'commander';
import type { DispatchMode } from '../../protocol/dispatch-modes';
import { isUrlTarget } from '../../client/endpoint-binding';
import { apiTarget } from '../api';
import { EXIT, EXIT_CODES_HELP, type ExitCode } from '../exit-codes';
import { watchTask } from '../follow-command';
import { note, printJson, type CommonOptions } from '../output';
import { dispatch } from '../tasks-api';
import { commonOptions, reconnectOption, seconds } from './options';

/** `auto` lets the server stream when the peer's card can, and send blocking otherwise. */
const CLI_MODES: Record<string, DispatchMode> = { auto: 'streaming', stream: 'streaming', blocking: 'blocking', background: 'background' };

interface DispatchOptions extends CommonOptions {
  mode: string;
  timeout?: number;
  context?: string;
  follow?: boolean;
  reconnectLimit: number;
}

export function targetOf(value: string): { peer: string } | { url: string } {
  return isUrlTarget(value) ? { url: value } : { peer: value };
}

async function run(targetArg: string, text: string, opts: DispatchOptions): Promise<ExitCode> {
  const target = apiTarget(opts.url);
  const mode = CLI_MODES[opts.mode];
  const { taskId, warnings } = await dispatch(target, { ...targetOf(targetArg), text, mode, timeoutSeconds: opts.timeout, contextId: opts.context });
  // Warned, never refused: the server says when a timeout is below its floor.
  for (const warning of warnings ?? []) note(`warning: ${warning}`);
  if (opts.follow) return watchTask(target, taskId, { json: opts.json, reconnectLimit: opts.reconnectLimit });
  if (opts.json) printJson({ taskId, mode, dashboardUrl: `${target.baseUrl}/tasks/${taskId}`, ...(warnings ? { warnings } : {}) });
  else {
    process.stdout.write(`${taskId}\n`);
    note(`dispatched (${mode}); follow it with: switchboard tasks watch ${taskId}\ndashboard: ${target.baseUrl}/tasks/${taskId}`);
  }
  return EXIT.completed;
}

export function dispatchCommand(exit: (code: ExitCode) => void): Command {
  const cmd = new Command('dispatch')
    .description('send a task to a peer (by name) or an agent URL through the running Switchboard')
    .argument('<peer|url>', 'a peer name (see peers ls), an http(s) agent URL, or a grpc:// or rest+http(s):// endpoint a task recorded')
    .argument('<text>', 'the message text')
    .addOption(new Option('--mode <mode>', 'how the Switchboard sends it').choices(Object.keys(CLI_MODES)).default('auto'))
    .option('--timeout <seconds>', 'client timeout for this dispatch (seconds, at most 86400; below 10 is warned about)', seconds('--timeout'))
    .option('--context <id>', 'continue a conversation (A2A contextId)')
    .option('--follow', 'follow the task to its end: progress on stderr, result on stdout, exit code per ending')
    .addHelpText('after', EXIT_CODES_HELP);
  reconnectOption(commonOptions(cmd));
  return cmd.action(async (peer: string, text: string, opts: DispatchOptions) => exit(await run(peer, text, opts)));
}
