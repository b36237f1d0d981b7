import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, groupOf, isAlive, liveTreeMembers, makeRunner, NODE, readJsonWhenPresent, RecordingLog } from '../../tests/fixtures/launcher-test-kit';
import { RecordingTurn } from '../../tests/fixtures/recording-turn';
import type { LauncherRunner } from './index';

const runners: LauncherRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

const GRACE_MS = 150;

function tracked(runner: LauncherRunner): LauncherRunner {
  runners.push(runner);
  return runner;
}

interface TreePids {
  leader: number;
  grandchild: number;
}

function pidFile(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'launcher-tree-')), 'pids.json');
}

describe('reaping (TERM, grace, KILL, group verified empty)', () => {
  it('cancel kills a tree that ignores SIGTERM, grandchild included, and returns promptly', async () => {
    const file = pidFile();
    const log = new RecordingLog();
    const runner = tracked(makeRunner({ type: 'process', command: [NODE, agent('stubborn-tree.mjs'), file, 'hang'], killGraceMs: GRACE_MS }, { log }));
    const turn = new RecordingTurn();
    const running = runner.runTurn(turn);
    const pids = await readJsonWhenPresent<TreePids>(file);
    // The tree runs in its guardian's group (decision 234): the guardian, the leader, the grandchild.
    const pgid = groupOf(pids.leader);
    expect(pgid).not.toBe(pids.leader);
    expect(liveTreeMembers(pgid).sort()).toEqual([pgid, pids.leader, pids.grandchild].sort());

    const cancelledAt = Date.now();
    turn.cancel('tasks/cancel');
    expect(await running).toEqual({ state: 'failed', reason: 'aborted: tasks/cancel' });
    // TERM is ignored, so the end comes from KILL right after the grace period.
    expect(Date.now() - cancelledAt).toBeLessThan(GRACE_MS + 2000);
    expect(liveTreeMembers(pgid)).toEqual([]);
    expect(isAlive(pids.grandchild)).toBe(false);
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a normal exit still reaps the grandchild the leader left behind (even one holding stdout)', async () => {
    const file = pidFile();
    const runner = tracked(makeRunner({ type: 'process', command: [NODE, agent('stubborn-tree.mjs'), file, 'exit'], killGraceMs: GRACE_MS }));
    const outcome = await runner.runTurn(new RecordingTurn());
    expect(outcome).toEqual({ state: 'completed', parts: [{ kind: 'text', text: 'leader done' }] });
    const pids = await readJsonWhenPresent<TreePids>(file);
    expect([pids.leader, pids.grandchild].filter(isAlive)).toEqual([]);
  });

  it('the launcher timeout reaps the tree and fails the turn', async () => {
    const file = pidFile();
    const runner = tracked(
      makeRunner({ type: 'process', command: [NODE, agent('stubborn-tree.mjs'), file, 'hang'], killGraceMs: GRACE_MS, timeoutSeconds: 0.5 }),
    );
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'launcher timeout after 0.5s' });
    const pids = await readJsonWhenPresent<TreePids>(file);
    expect([pids.leader, pids.grandchild].filter(isAlive)).toEqual([]);
  });

  it('an already-aborted turn never spawns', async () => {
    const file = pidFile();
    const runner = tracked(makeRunner({ type: 'process', command: [NODE, agent('stubborn-tree.mjs'), file, 'hang'] }));
    const turn = new RecordingTurn();
    turn.cancel('late-result grace expired');
    expect(await runner.runTurn(turn)).toEqual({ state: 'failed', reason: 'aborted: late-result grace expired' });
  });

  it('close() kills every running tree (shutdown)', async () => {
    const files = [pidFile(), pidFile()];
    const runner = makeRunner({ type: 'process', command: [NODE, agent('stubborn-tree.mjs'), '{prompt}', 'hang'], killGraceMs: GRACE_MS });
    const running = files.map((file) => runner.runTurn(new RecordingTurn({ text: file })));
    const trees = await Promise.all(files.map((file) => readJsonWhenPresent<TreePids>(file)));
    await runner.close();
    expect(await Promise.all(running)).toEqual([
      { state: 'failed', reason: 'aborted: launcher closed' },
      { state: 'failed', reason: 'aborted: launcher closed' },
    ]);
    for (const tree of trees) expect([tree.leader, tree.grandchild].filter(isAlive)).toEqual([]);
  });
});

describe('bounded output (overflow ⇒ failed, tree killed, memory bounded)', () => {
  it('a stdout flood fails with "output limit exceeded" without buffering the flood', async () => {
    const runner = tracked(makeRunner({ type: 'process', command: [NODE, agent('flood.mjs')], maxOutputBytes: 256 * 1024, killGraceMs: GRACE_MS }));
    const before = process.memoryUsage().arrayBuffers;
    const started = Date.now();
    const outcome = await runner.runTurn(new RecordingTurn());
    expect(outcome).toEqual({ state: 'failed', reason: 'output limit exceeded: stdout exceeded 262144 bytes' });
    // The flood never ends by itself, so returning at all means the child was stopped; quickly,
    // and holding little more than the cap, means the runner stopped reading at the limit.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('a stderr flood is capped the same way', async () => {
    const runner = tracked(makeRunner({ type: 'process', command: [NODE, agent('flood.mjs'), 'stderr'], maxOutputBytes: 256 * 1024, killGraceMs: GRACE_MS }));
    expect(await runner.runTurn(new RecordingTurn())).toEqual({ state: 'failed', reason: 'output limit exceeded: stderr exceeded 262144 bytes' });
  });

  it('a streamed flood is cut at the cap too, after only capped bytes were emitted', async () => {
    const runner = tracked(
      makeRunner({ type: 'process', command: [NODE, agent('flood.mjs')], maxOutputBytes: 256 * 1024, streamStdout: true, killGraceMs: GRACE_MS }),
    );
    const turn = new RecordingTurn();
    const outcome = await runner.runTurn(turn);
    expect(outcome.state).toBe('failed');
    const emitted = turn.chunks.reduce((sum, c) => sum + c.artifact.parts.reduce((n, p) => n + (p.kind === 'text' ? p.text.length : 0), 0), 0);
    expect(emitted).toBeLessThanOrEqual(256 * 1024);
  });
});
