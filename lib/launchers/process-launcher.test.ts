import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, makeRunner, NODE, RecordingLog } from '../../tests/fixtures/launcher-test-kit';
import { RecordingTurn } from '../../tests/fixtures/recording-turn';
import { LauncherConfigError, type LauncherRunner, type LauncherSpecInput } from './index';

const runners: LauncherRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

function processRunner(spec: Omit<Extract<LauncherSpecInput, { type: 'process' }>, 'type'>, log?: RecordingLog): LauncherRunner {
  const runner = makeRunner({ type: 'process', killGraceMs: 200, ...spec }, { log });
  runners.push(runner);
  return runner;
}

interface EnvReport {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  stdin: string;
}

function report(outcome: Awaited<ReturnType<LauncherRunner['runTurn']>>): EnvReport {
  expect(outcome.state).toBe('completed');
  const part = outcome.parts?.[0];
  if (part?.kind !== 'text') throw new Error('expected a text reply');
  return JSON.parse(part.text) as EnvReport;
}

describe('process launcher: replies', () => {
  it('answers with trimmed stdout text', async () => {
    const runner = processRunner({ command: [NODE, agent('sleep-then-answer.mjs'), '20', '  the', 'answer  '] });
    const outcome = await runner.runTurn(new RecordingTurn());
    expect(outcome).toEqual({ state: 'completed', parts: [{ kind: 'text', text: 'the answer' }] });
  });

  it('answers from a dot-path field of JSON stdout', async () => {
    const runner = processRunner({
      command: [NODE, agent('session-agent.mjs'), '{prompt}'],
      output: { format: 'json', replyField: 'result.text' },
    });
    const outcome = await runner.runTurn(new RecordingTurn({ text: 'hi there' }));
    expect(outcome.state).toBe('completed');
    expect(outcome.parts).toEqual([{ kind: 'text', text: expect.stringMatching(/^new sess-[\w-]+: hi there$/) }]);
  });

  it('substitutes placeholders once, in argv elements, with no shell', async () => {
    const runner = processRunner({
      command: [NODE, agent('print-env.mjs'), '--prompt={prompt}', '{context_id}/{task_id}', '{peer}', '{agent}', '{"literal":true}'],
    });
    // A prompt that quotes our syntax and shell metacharacters must arrive verbatim.
    const turn = new RecordingTurn({ text: 'rm -rf $HOME; echo {context_id} `id`', contextId: 'ctx-1', taskId: 'task-1', peer: 'alice' });
    const { argv } = report(await runner.runTurn(turn));
    expect(argv).toEqual(['--prompt=rm -rf $HOME; echo {context_id} `id`', 'ctx-1/task-1', 'alice', 'test-agent', '{"literal":true}']);
  });

  it('gives the child a minimal environment plus passEnv and env', async () => {
    process.env.SWITCHBOARD_TEST_SECRET = 'hunter2';
    process.env.SWITCHBOARD_TEST_ALLOWED = 'visible';
    try {
      const runner = processRunner({
        command: [NODE, agent('print-env.mjs')],
        passEnv: ['SWITCHBOARD_TEST_ALLOWED', 'SWITCHBOARD_TEST_UNSET'],
        env: { FIXED: 'value', HOME: '/custom-home' },
      });
      const { env } = report(await runner.runTurn(new RecordingTurn()));
      const expected: Record<string, string> = { SWITCHBOARD_TEST_ALLOWED: 'visible', FIXED: 'value', HOME: '/custom-home' };
      for (const name of ['PATH', 'LANG', 'TMPDIR']) if (process.env[name] !== undefined) expected[name] = process.env[name]!;
      // Plus the hub's delegation variables (docs/launchers.md), never from the hub's own env.
      expect(env).toEqual({
        ...expected,
        SWITCHBOARD_DISPATCH_URL: expect.stringMatching(/\/api\/dispatch$/),
        SWITCHBOARD_DISPATCH_TOKEN: expect.stringMatching(/^sbd1\./),
        SWITCHBOARD_TASK_ID: expect.any(String),
      });
      expect(env).not.toHaveProperty('SWITCHBOARD_TEST_SECRET');
    } finally {
      delete process.env.SWITCHBOARD_TEST_SECRET;
      delete process.env.SWITCHBOARD_TEST_ALLOWED;
    }
  });

  it('runs in cwd resolved against baseDir, and can pass the prompt on stdin', async () => {
    const runner = processRunner({ command: [NODE, agent('print-env.mjs')], cwd: '..', stdin: 'prompt' });
    const { cwd, stdin, argv } = report(await runner.runTurn(new RecordingTurn({ text: 'a long prompt' })));
    expect(cwd).toBe(path.resolve(agent(''), '..'));
    expect(stdin).toBe('a long prompt');
    expect(argv).toEqual([]);
  });

  it('streams stdout lines as one appended artifact and does not repeat the reply', async () => {
    const runner = processRunner({ command: [NODE, agent('lines.mjs'), '4', '15'], streamStdout: true });
    const turn = new RecordingTurn();
    const outcome = await runner.runTurn(turn);
    expect(outcome.state).toBe('completed');
    expect(outcome.parts).toBeUndefined();
    if (outcome.state !== 'completed') throw new Error('expected completed');
    const artifactId = (outcome.metadata?.launcher as { replyArtifactId: string }).replyArtifactId;
    expect(turn.artifactText(artifactId)).toBe('line 1\nline 2\nline 3\nline 4\n');
    expect(turn.chunks.length).toBeGreaterThanOrEqual(2);
    expect(turn.chunks[0].append).toBe(false);
    expect(turn.chunks.slice(1).every((c) => c.append)).toBe(true);
    expect(turn.chunks.map((c) => c.lastChunk)).toEqual([...turn.chunks.slice(1).map(() => false), true]);
  });
});

describe('process launcher: session resume', () => {
  it('captures a JSON session id and resumes it on later turns of the same context only', async () => {
    const runner = processRunner({
      command: [NODE, agent('session-agent.mjs'), '{prompt}'],
      resume: [NODE, agent('session-agent.mjs'), '--resume', '{session_id}', '{prompt}'],
      output: { format: 'json', replyField: 'result.text', sessionIdField: 'session_id' },
    });
    const text = async (turn: RecordingTurn) => {
      const outcome = await runner.runTurn(turn);
      const part = outcome.parts?.[0];
      return part?.kind === 'text' ? part.text : `(${outcome.state})`;
    };
    const first = await text(new RecordingTurn({ contextId: 'c1', text: 'one' }));
    const id = /^new (sess-\S+): one$/.exec(first)?.[1];
    expect(id).toBeDefined();
    expect(await text(new RecordingTurn({ contextId: 'c1', text: 'two' }))).toBe(`resumed ${id}: two`);
    expect(await text(new RecordingTurn({ contextId: 'c2', text: 'three' }))).toMatch(/^new sess-/);
  });

  it('captures a text session id with a regex and strips that line from the reply', async () => {
    const runner = processRunner({
      command: [NODE, agent('session-agent.mjs'), '--text', '{prompt}'],
      resume: [NODE, agent('session-agent.mjs'), '--text', '--resume', '{session_id}', '{prompt}'],
      output: { format: 'text', sessionIdRegex: '^session: (\\S+)$', stripSessionMatch: true },
    });
    const first = await runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'one' }));
    const firstText = first.parts?.[0]?.kind === 'text' ? first.parts[0].text : '';
    expect(firstText).toMatch(/^new sess-\S+: one$/);
    const second = await runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'two' }));
    expect(second.parts).toEqual([{ kind: 'text', text: firstText.replace(/^new/, 'resumed').replace(/one$/, 'two') }]);
  });
});

describe('process launcher: failures carry precise reasons', () => {
  it('non-zero exit with the stderr tail', async () => {
    const runner = processRunner({ command: [agent('exit-nonzero.sh')] });
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'exit code 3: something broke: disk on fire' });
  });

  it('death by signal', async () => {
    const runner = processRunner({ command: [agent('self-signal.sh')] });
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'killed by signal SIGUSR1: about to crash' });
  });

  it('missing executable', async () => {
    const runner = processRunner({ command: ['/no/such/agent-binary', '{prompt}'] });
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'executable not found: /no/such/agent-binary' });
  });

  it('bad JSON and a missing or non-string reply field', async () => {
    const bad = processRunner({ command: [agent('bad-json.sh')], output: { format: 'json', replyField: 'result.text' } });
    const outcome = await bad.runTurn(new RecordingTurn());
    expect(outcome.state).toBe('failed');
    expect(outcome.state === 'failed' && outcome.reason).toMatch(/^stdout is not valid JSON: /);
    const missing = processRunner({ command: [NODE, agent('session-agent.mjs'), 'x'], output: { format: 'json', replyField: 'result.missing' } });
    expect(await missing.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'reply field "result.missing" is missing from the JSON output' });
    const notText = processRunner({ command: [NODE, agent('session-agent.mjs'), 'x'], output: { format: 'json', replyField: 'result' } });
    expect(await notText.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'reply field "result" is not a string (got object)' });
  });

  it('bad UTF-8 and an empty reply', async () => {
    const utf8 = processRunner({ command: [NODE, agent('bad-utf8.mjs')] });
    expect(await utf8.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'reply is not valid UTF-8' });
    const blank = processRunner({ command: [agent('blank.sh')] });
    expect(await blank.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'empty reply' });
  });

  it('a reply over maxReplyBytes is failed, never truncated into completed', async () => {
    const runner = processRunner({ command: [NODE, agent('sleep-then-answer.mjs'), '0', 'x'.repeat(2000)], maxReplyBytes: 1000 });
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'output limit exceeded: reply is 2000 bytes (limit 1000)' });
  });

  it('its own timeout ends the turn failed', async () => {
    const runner = processRunner({ command: [NODE, agent('sleep-then-answer.mjs'), '10000', 'late'], timeoutSeconds: 0.3 });
    const started = Date.now();
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'launcher timeout after 0.3s' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a cwd that disappears after config load is reported as such, not as a missing executable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'launcher-cwd-'));
    const runner = makeRunner({ type: 'process', command: [NODE, '-e', '1'], cwd: dir }, { baseDir: '/' });
    runners.push(runner);
    rmSync(dir, { recursive: true });
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: `working directory not found: ${dir}` });
  });

  it('refuses to build a runner whose cwd does not exist, naming the key', () => {
    expect(() => makeRunner({ type: 'process', command: ['x'], cwd: 'no-such-dir' })).toThrow(LauncherConfigError);
    expect(() => makeRunner({ type: 'process', command: ['x'], cwd: 'no-such-dir' })).toThrow(/^cwd: directory not found: .*no-such-dir$/);
  });

  it('a closed runner refuses new turns', async () => {
    const runner = processRunner({ command: [NODE, '-e', '1'] });
    await runner.close();
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'launcher is closed' });
  });
});
