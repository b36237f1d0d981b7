/**
 * Issue 14 §4: the ready configs in examples/ for real agent CLIs, loaded through the real config
 * loader and run as launchers against stand-ins (tests/fixtures/agent-clis) that take the same
 * arguments and print the same output shape as the CLIs' documented headless modes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadFileConfig } from '../../lib/config/file-config';
import { createLauncherRunner, type LauncherRunner } from '../../lib/launchers';
import { RecordingTurn } from '../fixtures/recording-turn';

const STAND_INS = path.resolve('tests/fixtures/agent-clis');
const savedPath = process.env.PATH;
const runners: LauncherRunner[] = [];

beforeAll(() => {
  // The example's `claude` / `codex` resolve to the stand-ins, as the real ones would on PATH.
  process.env.PATH = `${STAND_INS}:${savedPath}`;
});
afterAll(async () => {
  process.env.PATH = savedPath;
  await Promise.all(runners.map((r) => r.close()));
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
