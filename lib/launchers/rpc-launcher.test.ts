import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, EXAMPLE_WORKER, isAlive, makeRunner, NODE, RecordingLog, waitFor } from '../../tests/fixtures/launcher-test-kit';
import { RecordingTurn } from '../../tests/fixtures/recording-turn';
import type { LauncherRunner, LauncherSpecInput } from './index';
import type { TurnOutcome } from '../agent-runner';

const runners: LauncherRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

const GRACE_MS = 150;

function rpcRunner(spec: Partial<Extract<LauncherSpecInput, { type: 'rpc' }>> = {}, log?: RecordingLog): LauncherRunner {
  const runner = makeRunner({ type: 'rpc', command: [NODE, EXAMPLE_WORKER], killGraceMs: GRACE_MS, startupTimeoutSeconds: 5, ...spec }, { log });
  runners.push(runner);
  return runner;
}

function misbehaving(mode: string, spec: Partial<Extract<LauncherSpecInput, { type: 'rpc' }>> = {}): { runner: LauncherRunner; pidFile: string } {
  const pidFile = path.join(mkdtempSync(path.join(tmpdir(), 'rpc-worker-')), 'pid');
  return { runner: rpcRunner({ command: [NODE, agent('rpc-misbehave.mjs'), mode, pidFile], ...spec }), pidFile };
}

function workerPid(outcome: TurnOutcome): number {
  if (outcome.state !== 'completed') throw new Error(`expected completed, got ${outcome.state}`);
  return (outcome.metadata as { pid: number }).pid;
}

function failedReason(outcome: TurnOutcome): string {
  if (outcome.state !== 'failed') throw new Error(`expected failed, got ${outcome.state}`);
  return outcome.reason;
}

describe('rpc launcher with the example worker', () => {
  it('answers a prompt, then reuses the same worker for the next turn of the context', async () => {
    const runner = rpcRunner();
    const first = await runner.runTurn(new RecordingTurn({ contextId: 'c1', text: 'hello' }));
    expect(first).toMatchObject({ state: 'completed', parts: [{ kind: 'text', text: 'echo: hello' }], metadata: { turn: 1, contextId: 'c1' } });
    const second = await runner.runTurn(new RecordingTurn({ contextId: 'c1', text: 'again' }));
    expect(second).toMatchObject({ state: 'completed', metadata: { turn: 2 } });
    expect(workerPid(second)).toBe(workerPid(first));
    const other = await runner.runTurn(new RecordingTurn({ contextId: 'c2', text: 'hi' }));
    expect(other).toMatchObject({ metadata: { turn: 1, contextId: 'c2' } });
    expect(workerPid(other)).not.toBe(workerPid(first));
  });

  it('replies with a direct message, and recaps the conversation its prompt frame carried', async () => {
    const runner = rpcRunner();
    expect(await runner.runTurn(new RecordingTurn({ text: 'reply Paris' }))).toEqual({ state: 'message', parts: [{ kind: 'text', text: 'Paris' }] });
    const turn = new RecordingTurn({
      text: 'recap',
      turnNumber: 2,
      message: { messageId: 'm-9' },
      conversation: { messages: [{ kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }], taskId: 't' }], artifacts: [], truncated: true },
    });
    const recap = await runner.runTurn(turn);
    expect(recap.parts).toEqual([{ kind: 'text', text: `turn 2 of task ${turn.taskId}, message m-9 (older messages left out)\nuser: hi` }]);
  });

  it('streams artifact chunks that accumulate into the whole result', async () => {
    const runner = rpcRunner();
    const turn = new RecordingTurn({ text: 'stream 5 5' });
    const outcome = await runner.runTurn(turn);
    expect(outcome).toEqual({ state: 'completed' });
    expect(turn.chunks).toHaveLength(5);
    expect(turn.chunks.map((c) => [c.append, c.lastChunk])).toEqual([
      [false, false],
      [true, false],
      [true, false],
      [true, false],
      [true, true],
    ]);
    expect(turn.artifactText('stream')).toBe('chunk 1\nchunk 2\nchunk 3\nchunk 4\nchunk 5\n');
  });

  it('forwards progress, input-required and error frames', async () => {
    const runner = rpcRunner();
    const sleeping = new RecordingTurn({ text: 'sleep 20' });
    expect(await runner.runTurn(sleeping)).toMatchObject({ state: 'completed', parts: [{ text: 'slept 20 ms' }] });
    expect(sleeping.progress).toEqual([{ text: 'sleeping 20 ms' }]);
    expect(await runner.runTurn(new RecordingTurn({ text: 'ask which file?' }))).toEqual({ state: 'input-required', parts: [{ kind: 'text', text: 'which file?' }] });
    expect(await runner.runTurn(new RecordingTurn({ text: 'fail no such repo' }))).toEqual({ state: 'failed', reason: 'worker error: no such repo' });
  });

  it('a cancel sends abort; the acknowledging worker stays and serves the next turn', async () => {
    const runner = rpcRunner();
    const warm = await runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'warm up' }));
    const turn = new RecordingTurn({ contextId: 'c', text: 'sleep 10000' });
    const running = runner.runTurn(turn);
    await waitFor(() => turn.progress.length > 0);
    const cancelledAt = Date.now();
    turn.cancel('tasks/cancel');
    expect(await running).toEqual({ state: 'failed', reason: 'aborted: tasks/cancel' });
    expect(Date.now() - cancelledAt).toBeLessThan(1000);
    const after = await runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'still there?' }));
    expect(after).toMatchObject({ state: 'completed', metadata: { turn: 3 } });
    expect(workerPid(after)).toBe(workerPid(warm));
  });

  it('its turn timeout aborts the turn, failed, and keeps an acknowledging worker', async () => {
    const runner = rpcRunner({ timeoutSeconds: 0.2 });
    expect(await runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'sleep 10000' }))).toEqual({ state: 'failed', reason: 'launcher timeout after 0.2s' });
    expect(await runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'ok' }))).toMatchObject({ state: 'completed', metadata: { turn: 2 } });
  });

  it('queues turns of one context behind each other', async () => {
    const runner = rpcRunner();
    const a = runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'sleep 100' }));
    const b = runner.runTurn(new RecordingTurn({ contextId: 'c', text: 'second' }));
    const [first, second] = await Promise.all([a, b]);
    expect(first).toMatchObject({ state: 'completed', parts: [{ text: 'slept 100 ms' }] });
    expect(second).toMatchObject({ state: 'completed', metadata: { turn: 2 } });
  });

  it('closes a worker after its idle timeout', async () => {
    const log = new RecordingLog();
    const runner = rpcRunner({ idleTimeoutSeconds: 0.2 }, log);
    const pid = workerPid(await runner.runTurn(new RecordingTurn({ contextId: 'c' })));
    await waitFor(() => !isAlive(pid), 3000);
    expect(log.lines.map((l) => l.message)).toContainEqual(expect.stringMatching(/closed: idle for 0.2s$/));
    const next = await runner.runTurn(new RecordingTurn({ contextId: 'c' }));
    expect(next).toMatchObject({ state: 'completed', metadata: { turn: 1 } });
  });

  it('keeps at most maxWorkers, closing the least recently used idle one', async () => {
    const runner = rpcRunner({ maxWorkers: 2 });
    const one = workerPid(await runner.runTurn(new RecordingTurn({ contextId: 'one' })));
    const two = workerPid(await runner.runTurn(new RecordingTurn({ contextId: 'two' })));
    await runner.runTurn(new RecordingTurn({ contextId: 'three' }));
    expect(isAlive(one)).toBe(false);
    expect(isAlive(two)).toBe(true);
  });

  it('close() ends busy and idle workers and their trees', async () => {
    const runner = rpcRunner();
    const idlePid = workerPid(await runner.runTurn(new RecordingTurn({ contextId: 'idle' })));
    const busy = new RecordingTurn({ contextId: 'busy', text: 'sleep 10000' });
    const running = runner.runTurn(busy);
    await waitFor(() => busy.progress.length > 0);
    await runner.close();
    expect(await running).toEqual({ state: 'failed', reason: 'aborted: launcher closed' });
    expect(isAlive(idlePid)).toBe(false);
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'launcher is closed' });
  });
});

describe('rpc launcher evicts a worker that breaks the protocol', () => {
  const cases: Array<[string, RegExp]> = [
    ['malformed', /^worker protocol error: malformed frame \(not JSON: .*\): "this is not json"$/],
    ['unknown-type', /^worker protocol error: unknown frame type "shout"$/],
    ['oversize', /^worker protocol error: frame exceeds 65536 bytes$/],
    ['wrong-task', /^worker protocol error: "final" frame for unknown task "someone-else"$/],
    ['exit-mid-turn', /^worker exited mid-turn \(exit code 3\): fatal: out of cheese$/],
  ];
  for (const [mode, reason] of cases) {
    it(`${mode}: failed with a precise reason, tree killed, next turn gets a new worker`, async () => {
      const { runner, pidFile } = misbehaving(mode, { maxFrameBytes: 64 * 1024 });
      const outcome = await runner.runTurn(new RecordingTurn({ contextId: 'c' }));
      expect(failedReason(outcome)).toMatch(reason);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(isAlive(pid)).toBe(false);
      await runner.runTurn(new RecordingTurn({ contextId: 'c' }));
      expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(pid);
    });
  }

  it('a protocol version mismatch fails the turn at startup', async () => {
    const { runner, pidFile } = misbehaving('wrong-version');
    const outcome = await runner.runTurn(new RecordingTurn());
    expect(failedReason(outcome)).toBe('worker protocol error: worker speaks protocol "switchboard.worker/0", expected "switchboard.worker/1"');
    expect(isAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('no hello within startupTimeoutSeconds', async () => {
    const { runner } = misbehaving('no-hello', { startupTimeoutSeconds: 0.3 });
    expect(failedReason(await runner.runTurn(new RecordingTurn()))).toBe('worker startup timeout after 0.3s (no hello frame)');
  });

  it('a worker that ignores abort (and SIGTERM) is evicted after the grace, tree gone', async () => {
    const { runner, pidFile } = misbehaving('ignore-abort');
    const turn = new RecordingTurn();
    const running = runner.runTurn(turn);
    const pid = await waitFor(() => {
      try {
        return Number(readFileSync(pidFile, 'utf8')) || undefined;
      } catch {
        return undefined;
      }
    });
    await waitFor(() => existsSync(`${pidFile}.prompt`)); // the prompt reached the worker
    turn.cancel('tasks/cancel');
    expect(await running).toEqual({ state: 'failed', reason: 'aborted: tasks/cancel' });
    expect(isAlive(pid)).toBe(false);
  });

  it('close() waits for a worker that an idle timeout is already closing (one that resists it)', async () => {
    const { runner, pidFile } = misbehaving('stubborn-echo', { idleTimeoutSeconds: 0.05 });
    expect(await runner.runTurn(new RecordingTurn({ text: 'hi' }))).toMatchObject({ state: 'completed' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => existsSync(`${pidFile}.eof`)); // the idle shutdown began: stdin closed, the grace runs
    expect(isAlive(pid)).toBe(true);
    await runner.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('a final frame written just before exiting still completes the turn', async () => {
    const { runner } = misbehaving('final-then-exit');
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'completed', parts: [{ kind: 'text', text: 'last words' }] });
  });

  it('a missing worker executable', async () => {
    const runner = rpcRunner({ command: ['/no/such/worker'] });
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'executable not found: /no/such/worker' });
  });

  it('a prompt too large for the frame limit is refused without sending it', async () => {
    const runner = rpcRunner({ maxFrameBytes: 2048 });
    const outcome = await runner.runTurn(new RecordingTurn({ text: 'y'.repeat(4096) }));
    expect(failedReason(outcome)).toMatch(/^prompt frame is \d+ bytes, over the frame limit \(2048\)$/);
    expect(await runner.runTurn(new RecordingTurn({ text: 'small' }))).toMatchObject({ state: 'completed' });
  });
});
