/**
 * `switchboard`: the command line for a running Switchboard (README "Command line"). Every
 * command but `keys` talks to the server's API at SWITCHBOARD_URL with SWITCHBOARD_TOKEN, so
 * what it does is recorded, shown in the dashboard and held to the same roles.
 */
import { Command, CommanderError } from 'commander';
import { EXIT, EXIT_CODES_HELP, type ExitCode } from './exit-codes';
import { reportError } from './output';
import { dispatchCommand } from './commands/dispatch';
import { tasksCommand } from './commands/tasks';
import { peersCommand } from './commands/peers';
import { keysCommand } from './commands/keys';
import { mcpCommand } from './commands/mcp';
import { auditCommand } from './commands/audit';
import { commandGroup } from './commands/options';

export function buildProgram(exit: (code: ExitCode) => void): Command {
  const subcommands = [dispatchCommand(exit), tasksCommand(exit), peersCommand(exit), keysCommand(exit), auditCommand(exit), mcpCommand(exit)];
  return commandGroup('switchboard', 'dispatch, follow and manage tasks on a running Switchboard', subcommands)
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride()
    .showSuggestionAfterError();
}

/** Runs the CLI on argv (without node and the script) and resolves to the exit code. */
export async function runCli(argv: string[]): Promise<ExitCode> {
  let code: ExitCode = EXIT.completed;
  const program = buildProgram((c) => (code = c));
  program.commands.forEach(function exitOverride(cmd: Command) {
    cmd.exitOverride();
    cmd.commands.forEach(exitOverride);
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.completed : EXIT.usage;
    return reportError(err, argv.includes('--json'));
  }
}
