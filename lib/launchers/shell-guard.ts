/**
 * "No shell, ever" is a promise a config can break: `["sh", "-c", "agent {prompt}"]`
 * hands the caller's text to a shell that parses it as commands. A list of "shell
 * at element 0" missed `xargs sh -c`, `find -exec sh -c`, `sudo sh -c`, `ssh host cmd` and
 * `node --eval=`, so the rule is now about where a placeholder lands (decision 177):
 *
 * 1. After a shell, or after a program that hands its arguments to a shell (ssh, su, watch,
 *    script, parallel, env -S …), wherever in argv that program appears: refused.
 * 2. After an interpreter (python, node, perl, awk, sed …): refused in the interpreter's own
 *    options, in its inline code (`-c`, `-e`, `--eval=`, `-pe`, attached `-cCODE`) and in the
 *    script position (the caller would choose the file or module that runs). After the script
 *    or the inline code, a placeholder is data in the program's argv, and accepted.
 *
 * Programs are recognised by base name (`/usr/bin/python3.12` → `python`). A value given as its own
 * argv element to any other program stays safe. `allowShell: true` turns the check off.
 */
import { placeholdersIn } from './placeholders';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rc', 'cmd', 'powershell', 'pwsh']);
/** Programs that run (part of) their arguments through a shell or a command-line parser. */
const SHELL_RUNNERS = new Set(['ssh', 'su', 'runuser', 'watch', 'script', 'parallel', 'flock', 'tmux', 'screen', 'expect']);
/** Options that make an otherwise argv-passing program use a shell or re-split a string. */
const SHELL_OPTIONS: Record<string, RegExp> = { env: /^(-S|--split-string(=|$)|-[a-zA-Z]*S)/, sudo: /^(-s|-i|--shell|--login|-[a-zA-Z]*[si])$/ };

/** Interpreters: the one-letter and long flags after which (or attached to which) comes code. */
const INTERPRETERS: Record<string, { short: string; long: string[]; subcommands?: string[] }> = {
  python: { short: 'cm', long: [] },
  pypy: { short: 'cm', long: [] },
  node: { short: 'epr', long: ['--eval', '--print', '--require', '--import', '--loader', '--experimental-loader'] },
  nodejs: { short: 'epr', long: ['--eval', '--print', '--require', '--import'] },
  deno: { short: '', long: ['--eval'], subcommands: ['eval'] },
  bun: { short: 'er', long: ['--eval', '--print', '--preload'] },
  perl: { short: 'eEM', long: [] },
  ruby: { short: 'er', long: [] },
  php: { short: 'rBRE', long: [] },
  lua: { short: 'el', long: [] },
  luajit: { short: 'el', long: [] },
  osascript: { short: 'e', long: [] },
  rscript: { short: 'e', long: [] },
  julia: { short: 'eE', long: ['--eval', '--print'] },
  tclsh: { short: '', long: [] },
  wish: { short: '', long: [] },
  awk: { short: '', long: ['--source'] },
  gawk: { short: 'e', long: ['--source'] },
  mawk: { short: '', long: [] },
  nawk: { short: '', long: [] },
  sed: { short: 'e', long: ['--expression'] },
  npx: { short: 'c', long: ['--call', '--package'] },
  uvx: { short: '', long: ['--from', '--with'] },
  pipx: { short: '', long: [] },
};

/** `/usr/bin/python3.12` → `python`, `C:\\Windows\\cmd.exe` → `cmd`. */
function programName(arg: string): string {
  const base = arg.split(/[\\/]/).pop() ?? arg;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '').replace(/[\d.]+$/, '');
}

const hasPlaceholder = (arg: string | undefined) => arg !== undefined && placeholdersIn(arg).length > 0;

export interface ShellProblem {
  index: number;
  message: string;
}

const FIX = 'pass the value as its own argv element to the program itself, or set allowShell: true if you accept the risk (docs/launchers.md)';

function firstPlaceholderAfter(argv: readonly string[], at: number): number {
  return argv.findIndex((arg, i) => i > at && hasPlaceholder(arg));
}

/** Rule 1: a shell (or a program that uses one) anywhere, with a placeholder after it. */
function shellProblem1(argv: readonly string[]): ShellProblem | null {
  for (let at = 0; at < argv.length; at++) {
    const name = programName(argv[at]);
    const viaOption = SHELL_OPTIONS[name] ? argv.findIndex((a, i) => i > at && SHELL_OPTIONS[name].test(a)) : -1;
    if (!SHELLS.has(name) && !SHELL_RUNNERS.has(name) && viaOption === -1) continue;
    const placeholder = firstPlaceholderAfter(argv, at);
    if (placeholder === -1) continue;
    const found = `{${placeholdersIn(argv[placeholder])[0]}}`;
    const what = SHELLS.has(name) ? `the shell "${argv[at]}"` : `"${argv[at]}"${viaOption !== -1 ? ` ${argv[viaOption]}` : ''}, which runs its arguments through a shell,`;
    return { index: at, message: `runs ${what} with a placeholder (${found} in element ${placeholder}): the shell would parse the caller's text as commands (shell injection); ${FIX}` };
  }
  return null;
}

/** Where an interpreter's code comes from in one option element: attached, the next element, or none. */
function codeOf(arg: string, spec: (typeof INTERPRETERS)[string]): 'attached' | 'next' | null {
  const long = spec.long.find((flag) => arg === flag || arg.startsWith(`${flag}=`));
  if (long) return arg === long ? 'next' : 'attached';
  if (!/^-[A-Za-z]/.test(arg) || arg.startsWith('--')) return null;
  // A cluster of letters (`-pe`, `-lne`) with a code flag in it takes the next element; a code
  // flag followed by anything else (`-cprint(1)`) has its code attached.
  const at = [...arg.slice(1)].findIndex((c) => spec.short.includes(c));
  if (at === -1 || !/^[A-Za-z]*$/.test(arg.slice(1, at + 1))) return null;
  return /^[A-Za-z]*$/.test(arg.slice(at + 2)) ? 'next' : 'attached';
}

/** Rule 2: a placeholder in an interpreter's options, inline code or script position. */
function interpreterProblem(argv: readonly string[], at: number): ShellProblem | null {
  const spec = INTERPRETERS[programName(argv[at])];
  if (!spec) return null;
  const refuse = (index: number, where: string): ShellProblem => ({
    index,
    message: `puts a placeholder in ${where} of "${argv[at]}" (${argv[index]}): the caller's text would choose or be the code it runs; ${FIX}`,
  });
  for (let i = at + 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return hasPlaceholder(argv[i + 1]) ? refuse(i + 1, 'the script position') : null;
    if (arg.startsWith('-') && arg.length > 1) {
      const code = codeOf(arg, spec);
      if (code === 'attached') return hasPlaceholder(arg) ? refuse(i, 'the inline code') : null;
      if (code === 'next') return hasPlaceholder(argv[i + 1]) ? refuse(i + 1, 'the inline code') : null;
      if (hasPlaceholder(arg)) return refuse(i, 'an option');
      continue;
    }
    if (spec.subcommands?.includes(arg)) return hasPlaceholder(argv[i + 1]) ? refuse(i + 1, 'the inline code') : null;
    // The first operand: the script, module or program text. What follows it is its argv.
    return hasPlaceholder(arg) ? refuse(i, 'the script position') : null;
  }
  return null;
}

/** Why this argv hands placeholder values to a shell or an interpreter's code, or null. */
export function shellProblem(argv: readonly string[]): ShellProblem | null {
  if (!argv.some(hasPlaceholder)) return null;
  const viaShell = shellProblem1(argv);
  if (viaShell) return viaShell;
  for (let at = 0; at < argv.length; at++) {
    const problem = interpreterProblem(argv, at);
    if (problem) return problem;
  }
  return null;
}
