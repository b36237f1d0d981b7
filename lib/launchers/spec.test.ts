import { describe, expect, it } from 'vitest';
import { formatLauncherIssues, LAUNCHER_DEFAULTS, LauncherSpecSchema } from './spec';

/** The loader's view: every issue as a `launcher.<path>: <message>` line. */
function issues(input: unknown): string[] {
  const result = LauncherSpecSchema.safeParse(input);
  return result.success ? [] : formatLauncherIssues(result.error);
}

describe('LauncherSpecSchema (an invalid config names the key)', () => {
  it('fills every default for a minimal process spec', () => {
    const spec = LauncherSpecSchema.parse({ type: 'process', command: ['agent', '{prompt}'] });
    expect(spec).toEqual({
      type: 'process',
      command: ['agent', '{prompt}'],
      passEnv: [],
      env: {},
      stdin: 'none',
      streamStdout: false,
      output: { format: 'text', stripSessionMatch: false },
      timeoutSeconds: LAUNCHER_DEFAULTS.timeoutSeconds,
      killGraceMs: 2000,
      maxOutputBytes: 4 * 1024 * 1024,
      maxReplyBytes: 1024 * 1024,
      historyMaxItems: 50,
      historyMaxBytes: 256 * 1024,
    });
  });

  it('fills rpc defaults (startup 30 s, idle 900 s, 1 MiB frames)', () => {
    const spec = LauncherSpecSchema.parse({ type: 'rpc', command: ['worker', '--context', '{context_id}'] });
    expect(spec).toMatchObject({ startupTimeoutSeconds: 30, idleTimeoutSeconds: 900, maxFrameBytes: 1024 * 1024, maxWorkers: 8 });
  });

  it('requires a known type', () => {
    expect(issues({ command: ['x'] })).toEqual(['launcher.type: is required: "process" or "rpc"']);
    expect(issues({ type: 'shell', command: ['x'] })).toEqual(['launcher.type: expected "process" or "rpc"']);
  });

  it('rejects unknown keys by name, listing the allowed ones (camelCase)', () => {
    const [line] = issues({ type: 'process', command: ['x'], pass_env: ['HOME'] });
    expect(line).toMatch(/^launcher: unknown key "pass_env"; allowed keys: .*passEnv/);
    expect(issues({ type: 'rpc', command: ['x'], streamStdout: true })[0]).toContain('unknown key "streamStdout"');
    expect(issues({ type: 'process', command: ['x'], output: { format: 'json', replyField: 'a', extra: 1 } })[0]).toMatch(
      /^launcher\.output: unknown key "extra"/,
    );
  });

  it('wants argv arrays, never a shell string', () => {
    expect(issues({ type: 'process', command: 'agent --prompt {prompt}' })).toEqual([
      'launcher.command: expected an argv array of strings, e.g. ["my-agent", "--prompt", "{prompt}"] (no shell is used)',
    ]);
    expect(issues({ type: 'process', command: [] })).toEqual(['launcher.command: must list at least the executable']);
    expect(issues({ type: 'process', command: ['', 'x'] })).toEqual(['launcher.command.0: the executable (element 0) must not be empty']);
    expect(issues({ type: 'process', command: ['a', 3] })).toEqual(['launcher.command.1: expected a string']);
  });

  it('rejects unknown placeholders by element, allows literal JSON braces', () => {
    expect(issues({ type: 'process', command: ['a', '--data', '{"a":1}', '{ spaced }', '{}'] })).toEqual([]);
    expect(issues({ type: 'process', command: ['a', 'x={promt}'] })).toEqual([
      'launcher.command.1: placeholder {promt} is unknown; allowed: {prompt}, {context_id}, {task_id}, {message_id}, {peer}, {agent}, {result_file}',
    ]);
    expect(issues({ type: 'process', command: ['{prompt}'] })).toEqual([
      'launcher.command.0: the executable cannot contain placeholders (found {prompt})',
    ]);
    expect(issues({ type: 'rpc', command: ['w', '{task_id}'] })[0]).toBe(
      'launcher.command.1: placeholder {task_id} is not allowed here; allowed: {agent}, {context_id}',
    );
  });

  it('only allows {session_id} in resume, wired to a capture', () => {
    expect(issues({ type: 'process', command: ['a', '{session_id}'] })[0]).toMatch(/^launcher\.command\.1: placeholder \{session_id\} is not allowed here/);
    expect(issues({ type: 'process', command: ['a'], resume: ['a', '--resume', '{session_id}'] })).toEqual([
      'launcher.resume: uses {session_id}, so output.sessionIdRegex or resultFile.sessionIdField must say where the session id is found',
    ]);
    expect(issues({ type: 'process', command: ['a'], output: { format: 'json', replyField: 'r', sessionIdField: 's' } })).toEqual([
      'launcher.output.sessionIdField: a captured session id is only used by a "resume" argv containing {session_id}; add one or remove this key',
    ]);
    expect(issues({ type: 'process', command: ['a'], resume: ['a', '--continue', '{context_id}'] })).toEqual([]);
  });

  it('checks the session regex compiles and captures', () => {
    const base = { type: 'process', command: ['a'], resume: ['a', '{session_id}'] };
    expect(issues({ ...base, output: { format: 'text', sessionIdRegex: 'session: (' } })).toEqual([
      'launcher.output.sessionIdRegex: is not a valid regular expression',
    ]);
    expect(issues({ ...base, output: { format: 'text', sessionIdRegex: 'session: \\S+' } })[0]).toMatch(/needs a capture group/);
    expect(issues({ ...base, output: { format: 'text', sessionIdRegex: '^session: (\\S+)$' } })).toEqual([]);
  });

  it('names bad limits, env names and output fields', () => {
    expect(
      issues({
        type: 'process',
        command: ['a'],
        timeoutSeconds: 0,
        killGraceMs: 1.5,
        maxOutputBytes: 'big',
        passEnv: ['HOME', 'HOME'],
        env: { 'BAD-NAME': 'x', GOOD: 1 },
        output: { format: 'json', replyField: 'a..b' },
      }),
    ).toEqual([
      'launcher.passEnv: names must not repeat',
      'launcher.env.BAD-NAME: expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*)',
      'launcher.env.GOOD: expected a string value',
      'launcher.timeoutSeconds: must be greater than 0 seconds',
      'launcher.killGraceMs: expected a whole number of milliseconds',
      'launcher.maxOutputBytes: expected a number of bytes',
      'launcher.output.replyField: expected a dot path such as "result.text" (numbers index arrays)',
    ]);
  });

  it('only streams stdout for text output', () => {
    expect(issues({ type: 'process', command: ['a'], streamStdout: true, output: { format: 'json', replyField: 'r' } })[0]).toMatch(
      /^launcher\.streamStdout: needs output\.format "text"/,
    );
  });
});
