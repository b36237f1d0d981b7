/**
 * A `process` launcher reads a per-turn result file (`{result_file}` + `resultFile`)
 * after the child exits: the session id to resume, and the program's own word on whether the
 * run completed. Real child processes (tests/fixtures/agents/result-file-agent.mjs).
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, makeRunner, NODE } from '../../tests/fixtures/launcher-test-kit';
import { RecordingTurn } from '../../tests/fixtures/recording-turn';
import { LauncherSpecSchema, formatLauncherIssues, type LauncherRunner, type LauncherSpecInput } from './index';

const runners: LauncherRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

const AGENT = agent('result-file-agent.mjs');
const RESULT_FILE = { completedField: 'completed', failedField: 'failed', reasonFields: ['failure', 'turn_exit_reason'], sessionIdField: 'session_id' };

function runner(mode: string, resultFile: object = RESULT_FILE): LauncherRunner {
  const made = makeRunner({
    type: 'process',
    killGraceMs: 200,
    command: [NODE, AGENT, '{result_file}', mode],
    resume: [NODE, AGENT, '{result_file}', mode, '{session_id}'],
    resultFile,
  } as LauncherSpecInput);
  runners.push(made);
  return made;
}

const textOf = (outcome: Awaited<ReturnType<LauncherRunner['runTurn']>>) => (outcome.parts?.[0]?.kind === 'text' ? outcome.parts[0].text : '');
const pathIn = (text: string) => /wrote (\S+)$/.exec(text.trim())?.[1];

describe('process launcher: per-turn result file', () => {
  it('gives each turn a fresh private path, resumes the session the file names, and removes the file after the turn', async () => {
    const agentRunner = runner('ok');
    const first = await agentRunner.runTurn(new RecordingTurn({ contextId: 'ctx-a' }));
    expect(first.state).toBe('completed');
    const [, session] = /^new (sess-\d+) /.exec(textOf(first)) ?? [];
    expect(session).toBeDefined();
    const second = await agentRunner.runTurn(new RecordingTurn({ contextId: 'ctx-a' }));
    expect(textOf(second)).toMatch(new RegExp(`^resumed ${session} wrote `));
    const paths = [pathIn(textOf(first)), pathIn(textOf(second))];
    expect(paths[0]).not.toBe(paths[1]);
    for (const p of paths) {
      expect(p).toMatch(/switchboard-turn-[^/]+\/result\.json$/);
      expect(existsSync(p!)).toBe(false);
      expect(existsSync(p!.replace(/\/result\.json$/, ''))).toBe(false);
    }
  });

  it('a run the file says did not complete ends failed with the program\'s own reason, though stdout has text and it exited 0', async () => {
    const agentRunner = runner('incomplete');
    const outcome = await agentRunner.runTurn(new RecordingTurn({ contextId: 'ctx-b' }));
    expect(outcome).toEqual({ state: 'failed', reason: 'run did not complete: max_iterations: used 2 of 2 turns' });
    // The agent's session holds the partial work: the next turn of the context continues it.
    const next = await agentRunner.runTurn(new RecordingTurn({ contextId: 'ctx-b' }));
    expect(next.state).toBe('failed');
    expect(next).toMatchObject({ reason: 'run did not complete: max_iterations: used 2 of 2 turns' });
  });

  it('the file\'s reason wins over a non-zero exit code', async () => {
    const outcome = await runner('failed-exit').runTurn(new RecordingTurn());
    expect(outcome).toEqual({ state: 'failed', reason: 'run did not complete: provider said no' });
  });

  it('without a reason field the failure says which field said so', async () => {
    const outcome = await runner('incomplete', { completedField: 'completed', sessionIdField: 'session_id' }).runTurn(new RecordingTurn());
    expect(outcome).toEqual({ state: 'failed', reason: 'run did not complete: completed is false' });
  });

  it('a file over resultFile.maxBytes fails the turn with the limit named', async () => {
    const outcome = await runner('huge', { ...RESULT_FILE, maxBytes: 1024 }).runTurn(new RecordingTurn());
    expect(outcome).toEqual({ state: 'failed', reason: expect.stringMatching(/^output limit exceeded: result file is \d{4,} bytes \(limit 1024, resultFile\.maxBytes\)$/) });
  });

  it('a file that is not written fails the turn when required (the default), and is ignored when not', async () => {
    expect(await runner('none').runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: expect.stringMatching(/^result file was not written/) });
    const optional = await runner('none', { ...RESULT_FILE, required: false }).runTurn(new RecordingTurn());
    expect(optional.state).toBe('completed');
  });

  it('a symbolic link or a document that is not JSON is refused with the reason', async () => {
    expect(await runner('symlink').runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'result file is a symbolic link; expected a regular file' });
    expect(await runner('not-json').runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: expect.stringMatching(/^result file is not valid UTF-8 JSON: /) });
  });
});

describe('resultFile config', () => {
  const issues = (input: object) => {
    const parsed = LauncherSpecSchema.safeParse({ type: 'process', ...input });
    return parsed.success ? [] : formatLauncherIssues(parsed.error);
  };

  it('{result_file} and resultFile come together, in command and resume', () => {
    expect(issues({ command: ['agent', '--out', '{result_file}'] })).toEqual([expect.stringMatching(/^launcher\.command: uses \{result_file\}, so resultFile must say how to read it/)]);
    expect(issues({ command: ['agent'], resultFile: { completedField: 'ok' } })).toEqual([expect.stringMatching(/^launcher\.command: must pass \{result_file\} to the program/)]);
    expect(issues({ command: ['agent', '{result_file}'], resume: ['agent', '--again'], resultFile: { completedField: 'ok' } })).toEqual([
      expect.stringMatching(/^launcher\.resume: must pass \{result_file\}/),
    ]);
  });

  it('names bad keys and values', () => {
    expect(issues({ command: ['agent', '{result_file}'], resultFile: { completed: 'x' } })).toEqual([expect.stringMatching(/^launcher\.resultFile: unknown key "completed"; allowed keys: format, required, maxBytes/)]);
    expect(issues({ command: ['agent', '{result_file}'], resultFile: { format: 'yaml' } })).toEqual(['launcher.resultFile.format: expected "json"']);
    expect(issues({ command: ['agent', '{result_file}'], resultFile: { reasonFields: ['why'] } })).toEqual([expect.stringMatching(/^launcher\.resultFile\.reasonFields: needs resultFile\.completedField or resultFile\.failedField/)]);
    expect(issues({ command: ['agent', '{result_file}'], resultFile: { sessionIdField: 'session_id' } })).toEqual([expect.stringMatching(/^launcher\.resultFile\.sessionIdField: a captured session id is only used by a "resume"/)]);
    expect(
      issues({ command: ['agent', '{result_file}'], resume: ['agent', '{result_file}', '{session_id}'], output: { format: 'json', replyField: 'r', sessionIdField: 's' }, resultFile: { sessionIdField: 'session_id' } }),
    ).toEqual(['launcher.resultFile.sessionIdField: the session id is already read from output; keep one of the two']);
  });

  it('{result_file} is not offered to rpc workers', () => {
    expect(LauncherSpecSchema.safeParse({ type: 'rpc', command: ['worker', '{result_file}'] }).success).toBe(false);
  });
});
