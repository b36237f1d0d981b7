/**
 * The `launcher` key of a served agent (docs/launchers.md). Parsed once at config load into an
 * immutable, fully-defaulted spec; every issue names its key so the loader can report
 * `launcher.<path>: <message>` and keep serving the other agents.
 */
import { z } from 'zod';
import {
  argvUses,
  placeholderProblems,
  PROCESS_COMMAND_PLACEHOLDERS,
  PROCESS_RESUME_PLACEHOLDERS,
  RPC_COMMAND_PLACEHOLDERS,
  type PlaceholderName,
} from './placeholders';
import { shellProblem } from './shell-guard';

const MIB = 1024 * 1024;
/** setTimeout fires at once past 2^31-1 ms (~24.8 days); stay well below it. */
const MAX_SECONDS = 1_000_000;
const MAX_BYTES = 1024 * MIB;

export const LAUNCHER_DEFAULTS = {
  timeoutSeconds: 300,
  killGraceMs: 2000,
  maxOutputBytes: 4 * MIB,
  maxReplyBytes: MIB,
  startupTimeoutSeconds: 30,
  idleTimeoutSeconds: 900,
  maxFrameBytes: MIB,
  maxWorkers: 8,
  historyMaxItems: 50,
  historyMaxBytes: 256 * 1024,
  maxResultFileBytes: 64 * 1024,
} as const;

const noNul = (s: string) => !s.includes('\0');

const argvSchema = z
  .array(z.string({ error: 'expected a string' }).refine(noNul, 'must not contain a NUL character'), {
    error: 'expected an argv array of strings, e.g. ["my-agent", "--prompt", "{prompt}"] (no shell is used)',
  })
  .min(1, 'must list at least the executable')
  .refine((argv) => argv[0] !== '', { message: 'the executable (element 0) must not be empty', path: [0] });

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envNameSchema = z.string().regex(ENV_NAME, 'expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*)');

const passEnvSchema = z
  .array(envNameSchema, { error: 'expected an array of environment variable names' })
  .refine((names) => new Set(names).size === names.length, 'names must not repeat');

const envSchema = z.record(
  envNameSchema,
  z.string({ error: 'expected a string value' }).refine(noNul, 'must not contain a NUL character'),
  {
    error: (issue) => {
      if (issue.code === 'invalid_key') return 'expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*)';
      return issue.code === 'invalid_type' ? 'expected an object of NAME: "value" strings' : undefined;
    },
  },
);

const seconds = (fallback: number) =>
  z
    .number({ error: 'expected a number of seconds' })
    .positive('must be greater than 0 seconds')
    .max(MAX_SECONDS, `must be at most ${MAX_SECONDS} seconds`)
    .default(fallback);

const integer = (what: string, min: number, max: number, fallback: number) =>
  z
    .number({ error: `expected a number of ${what}` })
    .int(`expected a whole number of ${what}`)
    .min(min, `must be at least ${min} ${what}`)
    .max(max, `must be at most ${max} ${what}`)
    .default(fallback);

const DOT_PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
const dotPathSchema = z.string().regex(DOT_PATH, 'expected a dot path such as "result.text" (numbers index arrays)');

const sessionRegexSchema = z.string().superRefine((source, ctx) => {
  const groups = captureGroupCount(source);
  if (groups === null) ctx.addIssue({ code: 'custom', message: 'is not a valid regular expression' });
  else if (groups < 1) ctx.addIssue({ code: 'custom', message: 'needs a capture group around the session id, e.g. "session: (\\\\S+)"' });
});

/** Number of capture groups, or null if the pattern does not compile. */
function captureGroupCount(source: string): number | null {
  try {
    // An empty alternative always matches, so exec() reports every group slot.
    return (new RegExp(`${source}|`, 'm').exec('') ?? []).length - 1;
  } catch {
    return null;
  }
}

const unknownKeys = (allowed: string) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' && issue.keys
    ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; allowed keys: ${allowed}`
    : undefined;

const textOutputSchema = z.strictObject(
  {
    format: z.literal('text'),
    sessionIdRegex: sessionRegexSchema.optional(),
    stripSessionMatch: z.boolean({ error: 'expected true or false' }).default(false),
    inputRequiredMarker: z.string({ error: 'expected a string' }).trim().min(1, 'must not be empty').regex(/^[^\r\n]*$/, 'must be one line').optional(),
  },
  { error: unknownKeys('format, sessionIdRegex, stripSessionMatch, inputRequiredMarker') },
);

const jsonOutputSchema = z.strictObject(
  {
    format: z.literal('json'),
    replyField: dotPathSchema,
    sessionIdField: dotPathSchema.optional(),
    inputRequiredField: dotPathSchema.optional(),
  },
  { error: unknownKeys('format, replyField, sessionIdField, inputRequiredField') },
);

const jsonLinesOutputSchema = z.strictObject(
  {
    format: z.literal('jsonl'),
    replyField: dotPathSchema,
    replyWhere: z.record(dotPathSchema, z.string({ error: 'expected a string value' }), { error: 'expected an object of "dot.path": "value"' }).optional(),
    sessionIdField: dotPathSchema.optional(),
    inputRequiredField: dotPathSchema.optional(),
  },
  { error: unknownKeys('format, replyField, replyWhere, sessionIdField, inputRequiredField') },
);

const outputSchema = z
  .discriminatedUnion('format', [textOutputSchema, jsonOutputSchema, jsonLinesOutputSchema], {
    error: (issue) => (issue.code === 'invalid_union' ? 'expected "text", "json" or "jsonl"' : undefined),
  })
  .default({ format: 'text', stripSessionMatch: false });

const RESULT_FILE_KEYS = 'format, required, maxBytes, sessionIdField, completedField, failedField, reasonFields';

/**
 * `resultFile`: a JSON document the child writes to `{result_file}` (a fresh private path per
 * turn), read after it exits. It says what stdout cannot: the session id and whether the run
 * really completed (a truncated run often still prints text and exits 0).
 */
const resultFileSchema = z.strictObject(
  {
    format: z.literal('json', { error: 'expected "json"' }).default('json'),
    /** A run that exits 0 without writing the file fails (the program did not do what the config expects). */
    required: z.boolean({ error: 'expected true or false' }).default(true),
    maxBytes: integer('bytes', 1, 16 * MIB, LAUNCHER_DEFAULTS.maxResultFileBytes),
    sessionIdField: dotPathSchema.optional(),
    /** The run completed only when this field is `true`. */
    completedField: dotPathSchema.optional(),
    /** The run failed when this field is `true`. */
    failedField: dotPathSchema.optional(),
    /** Where the program says why it did not complete: the first non-empty string wins. */
    reasonFields: z.array(dotPathSchema, { error: 'expected an array of dot paths' }).min(1, 'must list at least one field').max(8, 'must list at most 8 fields').optional(),
  },
  { error: unknownKeys(RESULT_FILE_KEYS) },
);

/** Keys both launcher types share: where and how the child runs, and its limits. */
const commonShape = {
  command: argvSchema,
  cwd: z.string({ error: 'expected a directory path' }).min(1, 'must not be empty').optional(),
  passEnv: passEnvSchema.default([]),
  env: envSchema.default({}),
  timeoutSeconds: seconds(LAUNCHER_DEFAULTS.timeoutSeconds),
  killGraceMs: integer('milliseconds', 0, 60_000, LAUNCHER_DEFAULTS.killGraceMs),
  maxOutputBytes: integer('bytes', 1024, MAX_BYTES, LAUNCHER_DEFAULTS.maxOutputBytes),
  maxReplyBytes: integer('bytes', 1, MAX_BYTES, LAUNCHER_DEFAULTS.maxReplyBytes),
  historyMaxItems: integer('items', 0, 10_000, LAUNCHER_DEFAULTS.historyMaxItems),
  historyMaxBytes: integer('bytes', 0, 64 * MIB, LAUNCHER_DEFAULTS.historyMaxBytes),
  /** Dangerous opt-in: lets a shell (or inline interpreter code) receive placeholder values. */
  allowShell: z.boolean({ error: 'expected true or false' }).optional(),
};

const PROCESS_KEYS = 'type, command, resume, cwd, passEnv, env, stdin, timeoutSeconds, killGraceMs, maxOutputBytes, maxReplyBytes, historyMaxItems, historyMaxBytes, streamStdout, output, resultFile, allowShell';

export const ProcessLauncherSpecSchema = z
  .strictObject(
    {
      type: z.literal('process'),
      ...commonShape,
      resume: argvSchema.optional(),
      stdin: z.enum(['none', 'prompt', 'json'], { error: 'expected "none", "prompt" or "json"' }).default('none'),
      streamStdout: z.boolean({ error: 'expected true or false' }).default(false),
      output: outputSchema,
      resultFile: resultFileSchema.optional(),
    },
    { error: unknownKeys(PROCESS_KEYS) },
  )
  .superRefine((spec, ctx) => {
    addPlaceholderIssues(ctx, spec.command, 'command', PROCESS_COMMAND_PLACEHOLDERS);
    if (spec.resume) addPlaceholderIssues(ctx, spec.resume, 'resume', PROCESS_RESUME_PLACEHOLDERS);
    addShellIssues(ctx, spec, 'command');
    addShellIssues(ctx, spec, 'resume');
    addProcessConsistencyIssues(ctx, spec);
    addResultFileIssues(ctx, spec);
  });

const RPC_KEYS = 'type, command, cwd, passEnv, env, timeoutSeconds, startupTimeoutSeconds, idleTimeoutSeconds, killGraceMs, maxFrameBytes, maxOutputBytes, maxReplyBytes, historyMaxItems, historyMaxBytes, maxWorkers, allowShell';

export const RpcLauncherSpecSchema = z
  .strictObject(
    {
      type: z.literal('rpc'),
      ...commonShape,
      startupTimeoutSeconds: seconds(LAUNCHER_DEFAULTS.startupTimeoutSeconds),
      idleTimeoutSeconds: seconds(LAUNCHER_DEFAULTS.idleTimeoutSeconds),
      maxFrameBytes: integer('bytes', 1024, 64 * MIB, LAUNCHER_DEFAULTS.maxFrameBytes),
      maxWorkers: integer('workers', 1, 1024, LAUNCHER_DEFAULTS.maxWorkers),
    },
    { error: unknownKeys(RPC_KEYS) },
  )
  .superRefine((spec, ctx) => {
    addPlaceholderIssues(ctx, spec.command, 'command', RPC_COMMAND_PLACEHOLDERS);
    addShellIssues(ctx, spec, 'command');
  });

export const LauncherSpecSchema = z.discriminatedUnion('type', [ProcessLauncherSpecSchema, RpcLauncherSpecSchema], {
  error: (issue) => {
    if (issue.code !== 'invalid_union') return undefined;
    const type = (issue.input as { type?: unknown } | undefined)?.type;
    return type === undefined ? 'is required: "process" or "rpc"' : 'expected "process" or "rpc"';
  },
});

/** A validated spec with every default filled in. */
export type LauncherSpec = z.output<typeof LauncherSpecSchema>;
/** What a config file may contain (defaults optional). */
export type LauncherSpecInput = z.input<typeof LauncherSpecSchema>;
export type ProcessLauncherSpec = z.output<typeof ProcessLauncherSpecSchema>;
export type RpcLauncherSpec = z.output<typeof RpcLauncherSpecSchema>;
export type OutputSpec = ProcessLauncherSpec['output'];

type RefineContext = z.RefinementCtx;

function addPlaceholderIssues(ctx: RefineContext, argv: string[], key: string, allowed: readonly PlaceholderName[]): void {
  for (const [index, message] of placeholderProblems(argv, allowed)) {
    ctx.addIssue({ code: 'custom', path: [key, index], message });
  }
}

/** A shell or inline interpreter code fed with placeholder values, unless allowShell (shell-guard.ts). */
function addShellIssues(ctx: RefineContext, spec: { allowShell?: boolean; command: string[]; resume?: string[] }, key: 'command' | 'resume'): void {
  const argv = spec[key];
  const problem = argv && spec.allowShell !== true ? shellProblem(argv) : null;
  if (problem) ctx.addIssue({ code: 'custom', path: [key, problem.index], message: problem.message });
}

/** Cross-key rules: session continuity must be wired end to end, streaming only for text. */
function addProcessConsistencyIssues(ctx: RefineContext, spec: ProcessLauncherSpec): void {
  const output = spec.output;
  const outputKey = output.format === 'text' ? 'sessionIdRegex' : 'sessionIdField';
  const fromOutput = output.format === 'text' ? output.sessionIdRegex !== undefined : output.sessionIdField !== undefined;
  const fromResultFile = spec.resultFile?.sessionIdField !== undefined;
  const capturesSession = fromOutput || fromResultFile;
  const capturePath = fromResultFile && !fromOutput ? ['resultFile', 'sessionIdField'] : ['output', outputKey];
  const resumeUsesId = spec.resume !== undefined && argvUses(spec.resume, 'session_id');
  if (resumeUsesId && !capturesSession) {
    ctx.addIssue({
      code: 'custom',
      path: ['resume'],
      message: `uses {session_id}, so output.${outputKey} or resultFile.sessionIdField must say where the session id is found`,
    });
  }
  if (capturesSession && !resumeUsesId) {
    ctx.addIssue({
      code: 'custom',
      path: capturePath,
      message: 'a captured session id is only used by a "resume" argv containing {session_id}; add one or remove this key',
    });
  }
  if (output.format === 'text' && output.stripSessionMatch && output.sessionIdRegex === undefined) {
    ctx.addIssue({ code: 'custom', path: ['output', 'stripSessionMatch'], message: 'needs output.sessionIdRegex' });
  }
  if (spec.streamStdout && output.format !== 'text') {
    ctx.addIssue({
      code: 'custom',
      path: ['streamStdout'],
      message: 'needs output.format "text": a streamed stdout is the reply itself, a JSON document is not',
    });
  }
}

/** `{result_file}` and `resultFile` come together; one place says where the session id is. */
function addResultFileIssues(ctx: RefineContext, spec: ProcessLauncherSpec): void {
  const file = spec.resultFile;
  const argvs = [['command', spec.command], ...(spec.resume ? [['resume', spec.resume] as const] : [])] as const;
  for (const [key, argv] of argvs) {
    const uses = argvUses(argv, 'result_file');
    if (file && !uses) ctx.addIssue({ code: 'custom', path: [key], message: 'must pass {result_file} to the program, since resultFile says to read it' });
    if (!file && uses) ctx.addIssue({ code: 'custom', path: [key], message: 'uses {result_file}, so resultFile must say how to read it (e.g. {format: json, completedField: completed})' });
  }
  if (!file) return;
  const output = spec.output;
  const outputCapture = output.format === 'text' ? output.sessionIdRegex : output.sessionIdField;
  if (file.sessionIdField !== undefined && outputCapture !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['resultFile', 'sessionIdField'], message: 'the session id is already read from output; keep one of the two' });
  }
  if (file.reasonFields && file.completedField === undefined && file.failedField === undefined) {
    ctx.addIssue({ code: 'custom', path: ['resultFile', 'reasonFields'], message: 'needs resultFile.completedField or resultFile.failedField (a reason is only read for a run that did not complete)' });
  }
}

/**
 * Issues as `launcher.<path>: <message>` lines; the loader prefixes `file: agent "<slug>": `.
 * An issue about the object itself (an unknown key) has an empty path and a message that
 * names the key, giving `launcher: unknown key "x"; allowed keys: …`.
 */
export function formatLauncherIssues(error: z.ZodError, prefix = 'launcher'): string[] {
  return error.issues.map((issue) => `${[prefix, ...issue.path.map(String)].join('.')}: ${issue.message}`);
}
