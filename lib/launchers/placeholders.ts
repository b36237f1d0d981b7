/**
 * `{name}` placeholders inside launcher argv elements.
 *
 * A token is `{` + an identifier + `}`; anything else with braces (JSON such as `{"a":1}`,
 * `{ spaced }`, `{}`) is literal text. Substitution is a single pass, so a value that itself
 * contains `{context_id}` (a prompt quoting our syntax) is never expanded a second time.
 */

export const PLACEHOLDER_NAMES = ['prompt', 'context_id', 'task_id', 'message_id', 'peer', 'agent', 'session_id', 'result_file'] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];
export type PlaceholderValues = Partial<Record<PlaceholderName, string>>;

/**
 * Placeholders a per-turn process command may use (`{session_id}` only in `resume`).
 * `{result_file}` is a fresh private path per turn, read after the child exits (`resultFile`).
 */
export const PROCESS_COMMAND_PLACEHOLDERS: readonly PlaceholderName[] = ['prompt', 'context_id', 'task_id', 'message_id', 'peer', 'agent', 'result_file'];
export const PROCESS_RESUME_PLACEHOLDERS: readonly PlaceholderName[] = [...PROCESS_COMMAND_PLACEHOLDERS, 'session_id'];
/** An rpc worker outlives turns, so only per-context facts can go into its argv. */
export const RPC_COMMAND_PLACEHOLDERS: readonly PlaceholderName[] = ['agent', 'context_id'];

const TOKEN = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Every placeholder name used in one argv element, in order (duplicates kept). */
export function placeholdersIn(arg: string): string[] {
  return [...arg.matchAll(TOKEN)].map((m) => m[1]);
}

export function argvUses(argv: readonly string[], name: PlaceholderName): boolean {
  return argv.some((arg) => placeholdersIn(arg).includes(name));
}

/**
 * Problems with the placeholders of one argv, as [element index, message] pairs.
 * The executable (element 0) may not contain placeholders: the peer's prompt must never
 * choose which program runs.
 */
export function placeholderProblems(argv: readonly string[], allowed: readonly PlaceholderName[]): Array<[number, string]> {
  const problems: Array<[number, string]> = [];
  argv.forEach((arg, index) => {
    for (const name of placeholdersIn(arg)) {
      if (index === 0) {
        problems.push([index, `the executable cannot contain placeholders (found {${name}})`]);
      } else if (!(allowed as readonly string[]).includes(name)) {
        problems.push([index, unknownPlaceholderMessage(name, allowed)]);
      }
    }
  });
  return problems;
}

function unknownPlaceholderMessage(name: string, allowed: readonly PlaceholderName[]): string {
  const known = allowed.map((n) => `{${n}}`).join(', ');
  const where = (PLACEHOLDER_NAMES as readonly string[]).includes(name) ? 'not allowed here' : 'unknown';
  return `placeholder {${name}} is ${where}; allowed: ${known}`;
}

/** Substitutes every placeholder; a name without a value is a programming error (validation prevents it). */
export function substituteArgv(argv: readonly string[], values: PlaceholderValues): string[] {
  return argv.map((arg) =>
    arg.replace(TOKEN, (_match, name: string) => {
      const value = values[name as PlaceholderName];
      if (value === undefined) throw new Error(`no value for placeholder {${name}}`);
      return value;
    }),
  );
}
