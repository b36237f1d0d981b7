/**
 * The ready configs in examples/ for real agent CLIs, loaded through the real config
 * loader and run as launchers against stand-ins (tests/fixtures/agent-clis) that take the same
 * arguments and print the same output shape as the CLIs' documented headless modes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFileConfig } from '../../lib/config/file-config';
import { createLauncherRunner, type LauncherRunner } from '../../lib/launchers';
import { RecordingTurn } from '../fixtures/recording-turn';

const STAND_INS = path.resolve('tests/fixtures/agent-clis');
const savedPath = process.env.PATH;
const savedHermesHome = process.env.HERMES_HOME;
const hermesHome = mkdtempSync(path.join(os.tmpdir(), 'switchboard-hermes-home-'));
const runners: LauncherRunner[] = [];

beforeAll(() => {
  // The example's `claude` / `codex` / `hermes` resolve to the stand-ins, as the real ones would on PATH.
  process.env.PATH = `${STAND_INS}:${savedPath}`;
  // The Hermes example passes HERMES_HOME through (passEnv): its sessions go to a scratch home.
  process.env.HERMES_HOME = hermesHome;
});
afterAll(async () => {
  process.env.PATH = savedPath;
  if (savedHermesHome === undefined) delete process.env.HERMES_HOME;
  else process.env.HERMES_HOME = savedHermesHome;
  await Promise.all(runners.map((r) => r.close()));
  rmSync(hermesHome, { recursive: true, force: true });
});

function exampleRunner(file: string): LauncherRunner {
  const config = loadFileConfig(path.resolve('examples', file));
  expect(config.errors).toEqual([]);
  const [agent] = config.agents;
  const runner = createLauncherRunner(agent.launcher!, { slug: agent.slug, baseDir: config.baseDir });
  runners.push(runner);
  return runner;
}

async function replyText(runner: LauncherRunner, contextId: string, text: string): Promise<string> {
  const outcome = await runner.runTurn(new RecordingTurn({ contextId, text }));
  if (outcome.state !== 'completed') throw new Error(`turn ${outcome.state}: ${'reason' in outcome ? outcome.reason : ''}`);
  const part = outcome.parts?.[0];
  return part?.kind === 'text' ? part.text : '';
}

describe.each([
  ['claude-code.yaml', 'Claude Code (claude -p … --output-format json, --resume)'],
  ['codex.yaml', 'Codex CLI (codex exec --json, exec resume)'],
])('examples/%s: %s', (file) => {
  it('answers with the reply field and resumes the captured session on the next turn of the context', async () => {
    const runner = exampleRunner(file);
    const first = await replyText(runner, 'ctx-1', 'list the files');
    const session = /^new (\S+): list the files$/.exec(first)?.[1];
    expect(session).toBeDefined();
    expect(await replyText(runner, 'ctx-1', 'now the tests')).toBe(`resumed ${session}: now the tests`);
    expect(await replyText(runner, 'ctx-2', 'other conversation')).toMatch(/^new /);
  });
});

describe('examples/claude-code.yaml failures', () => {
  it('an error result (is_error, exit 1) fails the turn with the exit code and the JSON', async () => {
    const outcome = await exampleRunner('claude-code.yaml').runTurn(new RecordingTurn({ text: 'please fail' }));
    expect(outcome).toMatchObject({ state: 'failed', reason: expect.stringMatching(/^exit code 1: \{"type":"result".*"is_error":true/) });
  });
});

describe('examples/hermes.yaml: Hermes (hermes -p … chat -Q --query-file - --usage-file, --resume)', () => {
  it('a two-turn conversation resumes the Hermes session the usage file named; another context gets its own', async () => {
    const runner = exampleRunner('hermes.yaml');
    const first = await replyText(runner, 'ctx-h1', 'find the flaky test');
    const [, session] = /^\[default (\S+) turn 1 source=tool\] find the flaky test$/.exec(first) ?? [];
    expect(session).toBeDefined();
    // The second turn runs `--resume <session>`: Hermes answers in the same session, with the first turn in its history.
    expect(await replyText(runner, 'ctx-h1', 'now fix it')).toBe(`[default ${session} turn 2 source=tool] now fix it (earlier: find the flaky test)`);
    const other = await replyText(runner, 'ctx-h2', 'other work');
    expect(other).toMatch(/^\[default \S+ turn 1 source=tool\] other work$/);
    expect(other).not.toContain(session);
  });

  it('the prompt reaches Hermes on stdin verbatim, even one that looks like an option', async () => {
    const prompt = '--help; $(rm -rf ~) "quoted" {context_id}';
    expect(await replyText(exampleRunner('hermes.yaml'), 'ctx-h3', prompt)).toMatch(/turn 1 source=tool\] --help; \$\(rm -rf ~\) "quoted" \{context_id\}$/);
  });

  it('a run cut short at --max-turns ends failed with Hermes\'s reason, though Hermes printed a summary and exited 0', async () => {
    // What the launcher sees from Hermes here: text on stdout and exit 0, i.e. a run that looks completed.
    const usageFile = path.join(hermesHome, 'direct-usage.json');
    const direct = execFileSync(path.join(STAND_INS, 'hermes'), ['chat', '-Q', '--max-turns', '60', '--query-file', '-', '--usage-file', usageFile], {
      input: 'migrate the schema, steps 80',
      env: { ...process.env, HERMES_HOME: hermesHome },
    }).toString();
    expect(direct).toMatch(/^⚠️ Reached maximum iterations \(60\)/);

    const runner = exampleRunner('hermes.yaml');
    const outcome = await runner.runTurn(new RecordingTurn({ contextId: 'ctx-h4', text: 'migrate the schema, steps 80' }));
    expect(outcome).toEqual({ state: 'failed', reason: 'run did not complete: max_iterations_reached (60)' });
    // Hermes's session keeps the partial work: the next turn of the context continues it.
    expect(await replyText(runner, 'ctx-h4', 'finish the rest')).toMatch(/turn 2 source=tool\] finish the rest \(earlier: migrate the schema, steps 80\)$/);
  });
});
