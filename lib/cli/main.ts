/**
 * `switchboard`: the command line for a running Switchboard (README "Command line"). Every
 * command but `keys` talks to the server's API at SWITCHBOARD_URL with SWITCHBOARD_TOKEN, so
 * what it does is recorded, shown in the dashboard and held to the same roles.
 */
import { Command, CommanderError } from 'commander';
import { EXIT, type ExitCode } from './exit-codes';
import { reportError } from './output';
import { dispatchCommand } from './commands/dispatch';
import { tasksCommand } from './commands/tasks';
import { peersCommand } from './commands/peers';
import { keysCommand } from './commands/keys';

const EXIT_CODES_HELP = `
Environment:
  SWITCHBOARD_URL    the Switchboard to talk to (default http://127.0.0.1:3000)
  SWITCHBOARD_TOKEN  its operator or viewer token, sent as a Bearer token

Exit codes (dispatch --follow, tasks watch):
  0 completed   10 failed   11 canceled   12 input required   13 rejected
  14 lost contact (the outcome is unknown)   130 stopped with Ctrl-C (the task goes on)
Other exit codes:
  1 refused request   2 bad usage   3 Switchboard unreachable   4 token refused   5 unknown task or peer`;

export function buildProgram(exit: (code: ExitCode) => void): Command {
  return new Command('switchboard')
    .description('dispatch, follow and manage tasks on a running Switchboard')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride()
    .showSuggestionAfterError()
    .addCommand(dispatchCommand(exit))
    .addCommand(tasksCommand(exit))
    .addCommand(peersCommand(exit))
    .addCommand(keysCommand(exit));
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
