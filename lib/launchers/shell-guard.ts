/**
 * "No shell, ever" (design §5) is a promise a config can break: `["sh", "-c", "agent {prompt}"]`
 * hands the caller's text to a shell that parses it as commands (issue 11 §6). Refused at config
 * load: a shell as the program (directly, or behind `env`/`busybox`) with any placeholder in its
 * argv, and a placeholder inside the inline code of an interpreter (`python -c`, `node -e`, ...).
 * A value given as its own argv element to a program that does not re-parse it stays safe.
 * `allowShell: true` turns the check off (docs/launchers.md says why that is dangerous).
 */
import { placeholdersIn } from './placeholders';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rc', 'cmd', 'powershell', 'pwsh']);
const WRAPPERS = new Set(['env', 'busybox', 'command', 'exec', 'nohup', 'nice', 'setsid', 'stdbuf', 'timeout']);
/** Interpreters and the flags after which their argument is code. */
const INLINE_CODE_FLAGS: Record<string, string[]> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  bun: ['-e', '--eval'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  osascript: ['-e'],
};

/** `/usr/bin/python3.12` → `python`, `C:\\Windows\\cmd.exe` → `cmd`. */
function programName(arg: string): string {
  const base = arg.split(/[\\/]/).pop() ?? arg;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '').replace(/[\d.]+$/, '');
}

/** The index of the program actually run: past `env`, its VAR=value and options, and the like. */
function programIndex(argv: readonly string[]): number {
  let i = 0;
  while (i < argv.length - 1 && WRAPPERS.has(programName(argv[i]))) {
    i++;
    while (i < argv.length - 1 && (argv[i].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]) || /^\d+(\.\d+)?[smhd]?$/.test(argv[i]))) i++;
  }
  return i;
}

/** Why this argv hands placeholder values to a shell or an interpreter's code, or null. */
export function shellProblem(argv: readonly string[]): { index: number; message: string } | null {
  const at = programIndex(argv);
  const program = programName(argv[at] ?? '');
  const withPlaceholder = argv.findIndex((arg) => placeholdersIn(arg).length > 0);
  if (withPlaceholder === -1) return null;
  const found = `{${placeholdersIn(argv[withPlaceholder])[0]}}`;
  const fix = 'pass the value as its own argv element to the program itself, or set allowShell: true if you accept the risk (docs/launchers.md)';
  if (SHELLS.has(program)) {
    return { index: at, message: `runs the shell "${argv[at]}" with a placeholder (${found} in element ${withPlaceholder}): the shell would parse the caller's text as commands (shell injection); ${fix}` };
  }
  const flags = INLINE_CODE_FLAGS[program];
  const code = flags ? argv.findIndex((arg, i) => i > at && flags.includes(argv[i - 1]) && placeholdersIn(arg).length > 0) : -1;
  if (code !== -1) {
    return { index: code, message: `puts a placeholder inside the code "${argv[at]}" runs (${argv[code - 1]} ${argv[code]}): the caller's text would run as code; ${fix}` };
  }
  return null;
}
