/**
 * Starts the servers under test as child processes on free loopback ports, waits until they
 * answer, measures their resident memory, and stops them (SIGTERM, then SIGKILL of the group).
 *
 * - switchboard: `next start` of the bench build, on a fresh SQLite file unless one is given;
 * - ref-sdk: bench/ref-sdk/server.ts (Express + @a2a-js/sdk);
 * - next-floor: `next start bench/next-floor`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type ServerKind = 'switchboard' | 'ref-sdk' | 'next-floor';
export const SERVER_KINDS: ServerKind[] = ['switchboard', 'ref-sdk', 'next-floor'];

export interface RunningServer {
  kind: ServerKind;
  url: string;
  pid: number;
  /** Switchboard only: the SQLite file. */
  dbFile?: string;
  /** Resident set size of the server process (and any children), in MB. */
  rssMb(): number;
  /** CPU seconds the server has used so far: per-request cost that other load cannot inflate. */
  cpuSeconds(): number;
  logs(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Switchboard's build dir (relative to the repo). */
  distDir: string;
  /** Extra environment for the server. */
  env?: Record<string, string>;
  /** Switchboard: reuse this SQLite file instead of a fresh one. */
  dbFile?: string;
  /** Write a V8 CPU profile on exit into this directory. */
  cpuProfDir?: string;
  /** Switchboard: run the build of another checkout (its own `distDir` and node_modules), e.g. a baseline commit. */
  cwd?: string;
}

const NEXT_BIN = 'node_modules/next/dist/bin/next';
/** Per-caller quota limits of the bench's Switchboard servers (see command()). */
export const BENCH_CALLER_QUOTA = '1000000';

/** Every server still running, so a crash or Ctrl-C of the bench leaves nothing behind. */
const live = new Set<ChildProcess>();

export function killAllServers(): void {
  for (const child of live) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The process's descendants: one scan of /proc (a scan per child held the caller's event loop for tens of ms). */
function descendants(pid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      childrenOf.set(ppid, [...(childrenOf.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process went away while we looked
    }
  }
  const found: number[] = [];
  for (let i = -1; i < found.length; i++) found.push(...(childrenOf.get(i < 0 ? pid : found[i]) ?? []));
  return found;
}

/** CPU time (user + system) the process and its children have used, in seconds. */
export function cpuSecondsOf(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    } catch {
      // gone
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

export function rssMbOf(pid: number): number {
  let kb = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      kb += m ? Number(m[1]) : 0;
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

async function waitReady(url: string, child: ChildProcess, logs: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready:\n${logs()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready after ${timeoutMs} ms:\n${logs()}`);
}

/**
 * The V8 flags `npm start` gives the server (scripts/start.mjs), but for one NODE_OPTIONS already
 * sets. Read from the checkout that is started, so a baseline runs with the flags it shipped with.
 */
function serverNodeFlags(cwd: string | undefined, nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const file = path.join(cwd ?? process.cwd(), 'scripts/server-node-flags.json');
  const { flags } = JSON.parse(fs.readFileSync(file, 'utf8')) as { flags: string[] };
  return flags.filter((flag) => !nodeOptions.includes(flag.split('=')[0]));
}

function command(kind: ServerKind, port: number, opts: StartOptions): { args: string[]; env: Record<string, string>; health: string; dbFile?: string; tempDir?: string } {
  const prof = opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`, `--cpu-prof-name=${kind}-${Date.now()}.cpuprofile`] : [];
  const host = ['-H', '127.0.0.1', '-p', String(port)];
  if (kind === 'switchboard') {
    const tempDir = opts.dbFile ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
    const dbFile = opts.dbFile ?? path.join(tempDir!, 'switchboard.db');
    return {
      args: [...prof, ...serverNodeFlags(opts.cwd, opts.env?.NODE_OPTIONS), NEXT_BIN, 'start', ...host],
      env: {
        SWITCHBOARD_DIST_DIR: opts.distDir,
        DATABASE_URL: `file:${dbFile}`,
        SWITCHBOARD_LOG_LEVEL: 'warn',
        SWITCHBOARD_DRAIN: '1',
        NEXT_MANUAL_SIG_HANDLE: 'true',
        // The load tool is one caller standing for many: the per-caller quotas (200 requests/s,
        // 200 open tasks by default) stay on, so their counting is measured, but cannot refuse.
        SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER: BENCH_CALLER_QUOTA,
        SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER: BENCH_CALLER_QUOTA,
      },
      health: '/api/health',
      dbFile,
      tempDir,
    };
  }
  if (kind === 'ref-sdk') return { args: [...prof, '--import', 'tsx', 'bench/ref-sdk/server.ts'], env: {}, health: '/health' };
  return { args: [...prof, NEXT_BIN, 'start', 'bench/next-floor', ...host], env: {}, health: '/health' };
}

export async function startServer(kind: ServerKind, opts: StartOptions): Promise<RunningServer> {
  const port = await freePort();
  const cmd = command(kind, port, opts);
  let output = '';
  const child = spawn(process.execPath, cmd.args, {
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', HOST: '127.0.0.1', PORT: String(port), ...cmd.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    cwd: opts.cwd,
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-100_000);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const url = `http://127.0.0.1:${port}`;
  const logs = () => output;
  await waitReady(url + cmd.health, child, logs);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    kind,
    url,
    pid: child.pid!,
    dbFile: cmd.dbFile,
    rssMb: () => rssMbOf(child.pid!),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    logs,
    async stop() {
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 10_000))]);
      if (killed) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
        await exited;
      }
      // A fresh database is the bench's own: remove it (100k-task runs leave hundreds of MB).
      if (cmd.tempDir && !process.env.SWITCHBOARD_BENCH_KEEP_DB) fs.rmSync(cmd.tempDir, { recursive: true, force: true });
    },
  };
}
