/**
 * The start-up reaper against real process groups: it ends a recorded group whose
 * hub is gone, and leaves alone a group whose pid was reused (other start time), a group of a
 * hub still running, and records of another boot (dropped without touching anything). Also: a
 * turn's group is in the ledger while it runs and out of it once reaped, and a group that cannot
 * be recorded is killed and its turn fails.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, liveTreeMembers, NODE, RecordingLog, waitFor } from '../../tests/fixtures/launcher-test-kit';
import { RecordingTurn } from '../../tests/fixtures/recording-turn';
import { hubIdentity, type GroupLedger, type LaunchedGroupRecord } from './group-ledger';
import { createLauncherRunner, LauncherSpecSchema, type LauncherRunner } from './index';
import { reapOrphanedGroups } from './orphan-reaper';
import { readProcEntrySync } from './proc-table';

const started: number[] = [];
const runners: LauncherRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A group leader (own session) that ignores SIGTERM, as a stubborn agent would. */
function leader(): number {
  const child = spawn(NODE, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"], { detached: true, stdio: 'ignore' });
  child.unref();
  started.push(child.pid!);
  return child.pid!;
}

class ArrayLedger implements GroupLedger {
  rows: LaunchedGroupRecord[] = [];
  add(record: LaunchedGroupRecord): void {
    this.rows.push(record);
  }

  remove(record: LaunchedGroupRecord): void {
    this.rows = this.rows.filter((r) => !(r.pgid === record.pgid && r.startTime === record.startTime));
  }

  list(): LaunchedGroupRecord[] {
    return [...this.rows];
  }
}

function recordOf(pgid: number, hub: { pid: number; startTime: string }, overrides: Partial<LaunchedGroupRecord> = {}): LaunchedGroupRecord {
  const me = hubIdentity()!;
  return {
    pgid,
    startTime: readProcEntrySync(pgid)!.startTime,
    bootId: me.bootId,
    host: me.host,
    hubPid: hub.pid,
    hubStartTime: hub.startTime,
    agentSlug: 'test',
    kind: 'process',
    killGraceMs: 100,
    ...overrides,
  };
}

const DEAD_HUB = { pid: 2 ** 22 + 1, startTime: '1' }; // above pid_max: never a live process

describe('start-up reaping of recorded groups', () => {
  it('reaps a group whose hub is gone, and logs it', async () => {
    const pid = leader();
    await waitFor(() => isAlive(pid));
    const ledger = new ArrayLedger();
    ledger.add(recordOf(pid, DEAD_HUB));
    const log = new RecordingLog();
    const reaped = await reapOrphanedGroups(ledger, log.log);
    expect(reaped.map((r) => r.pids)).toEqual([[pid]]);
    expect(liveTreeMembers(pid)).toEqual([]);
    expect(ledger.rows).toEqual([]);
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes(`reaped process group ${pid}`))).toBe(true);
  });

  it('leaves alone a reused pid, a live hub\'s group and another boot\'s record', async () => {
    const reused = leader();
    const ofLiveHub = leader();
    const otherBoot = leader();
    const hub = leader(); // stands in for a second hub process on the same database
    await waitFor(() => [reused, ofLiveHub, otherBoot, hub].every(isAlive));
    const ledger = new ArrayLedger();
    ledger.add(recordOf(reused, DEAD_HUB, { startTime: '1' }));
    ledger.add(recordOf(ofLiveHub, { pid: hub, startTime: readProcEntrySync(hub)!.startTime }));
    ledger.add(recordOf(otherBoot, DEAD_HUB, { bootId: 'another-boot' }));
    const reaped = await reapOrphanedGroups(ledger, new RecordingLog().log);
    expect(reaped).toEqual([]);
    expect([reused, ofLiveHub, otherBoot].every(isAlive)).toBe(true);
    // The reused pid's record and the other boot's are settled; the live hub's stays for it.
    expect(ledger.rows.map((r) => r.pgid)).toEqual([ofLiveHub]);
  });
});

describe('recording launched groups', () => {
  it('a running turn\'s group is recorded, and removed once the turn is over', async () => {
    const ledger = new ArrayLedger();
    const spec = LauncherSpecSchema.parse({ type: 'process', command: [NODE, '-e', 'setTimeout(() => console.log("done"), 300)'] });
    const runner = createLauncherRunner(spec, { slug: 'rec', baseDir: process.cwd(), ledger, log: new RecordingLog().log });
    runners.push(runner);
    const outcome = runner.runTurn(new RecordingTurn());
    const row = await waitFor(() => ledger.rows[0]);
    expect(row).toMatchObject({ agentSlug: 'rec', kind: 'process', hubPid: process.pid, killGraceMs: 2000 });
    expect(row.startTime).toBe(readProcEntrySync(row.pgid)?.startTime);
    expect(await outcome).toEqual({ state: 'completed', parts: [{ kind: 'text', text: 'done' }] });
    expect(ledger.rows).toEqual([]);
  });

  it('a group that cannot be recorded is killed, and the turn fails saying why', async () => {
    let refused = 0;
    const failing: GroupLedger = {
      add: (record) => {
        refused = record.pgid;
        throw new Error('disk full');
      },
      remove() {},
      list: () => [],
    };
    const spec = LauncherSpecSchema.parse({ type: 'process', command: [NODE, '-e', 'setInterval(() => {}, 1000)'] });
    const runner = createLauncherRunner(spec, { slug: 'rec', baseDir: process.cwd(), ledger: failing, log: new RecordingLog().log });
    runners.push(runner);
    const outcome = await runner.runTurn(new RecordingTurn());
    expect(outcome).toMatchObject({ state: 'failed', reason: expect.stringContaining('could not record the launched process group: disk full') });
    expect(refused).toBeGreaterThan(0);
    await waitFor(() => liveTreeMembers(refused).length === 0);
  });

  it('an asynchronous ledger (PostgreSQL\'s): the turn runs once the record resolves, and its removal is awaited', async () => {
    const rows = new ArrayLedger();
    const ledger: GroupLedger = {
      add: async (record) => rows.add(record),
      remove: async (record) => rows.remove(record),
      list: async () => rows.list(),
    };
    const spec = LauncherSpecSchema.parse({ type: 'process', command: [NODE, '-e', 'process.stdin.pipe(process.stdout)'], stdin: 'prompt' });
    const runner = createLauncherRunner(spec, { slug: 'rec', baseDir: process.cwd(), ledger, log: new RecordingLog().log });
    runners.push(runner);
    expect(await runner.runTurn(new RecordingTurn())).toMatchObject({ state: 'completed' });
    await waitFor(() => rows.rows.length === 0);
  });

  it('a record that an asynchronous ledger rejects: the group is killed, and the turn fails saying why', async () => {
    let refused = 0;
    const failing: GroupLedger = {
      add: async (record) => {
        refused = record.pgid;
        throw new Error('connection lost');
      },
      remove: async () => {},
      list: async () => [],
    };
    for (const type of ['process', 'rpc'] as const) {
      const spec = LauncherSpecSchema.parse({ type, command: [NODE, '-e', 'setInterval(() => {}, 1000)'] });
      const runner = createLauncherRunner(spec, { slug: 'rec', baseDir: process.cwd(), ledger: failing, log: new RecordingLog().log });
      runners.push(runner);
      const outcome = await runner.runTurn(new RecordingTurn());
      expect(outcome, type).toMatchObject({ state: 'failed', reason: expect.stringContaining('could not record the launched process group: connection lost') });
      expect(refused).toBeGreaterThan(0);
      await waitFor(() => liveTreeMembers(refused).length === 0);
    }
  });
});
