/**
 * Starts the built Switchboard app (`next start`) as a real child process on a free loopback
 * port, with its own database (a SQLite file; in the `postgresql` Vitest project a PostgreSQL
 * database), for protocol and integration tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freshPgDatabase, testStore } from './postgres';

export interface AppServer {
  url: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  logs: () => string;
  /** SIGTERM and wait for exit (graceful shutdown path). */
  stop(): Promise<void>;
  /** Sends one signal to the server process, without waiting (stop paths under test). */
  signal(sig: NodeJS.Signals): void;
  /** Resolves once the server process has exited. */
  exited(): Promise<void>;
  /** SIGKILL the whole process group (crash). */
  kill(): Promise<void>;
  /** Start again on the same port and database. */
  restart(extraEnv?: Record<string, string>): Promise<void>;
}

/** The key every PostgreSQL app of the tests shares unless a test sets SWITCHBOARD_SECRET_KEY. */
export const TEST_CLUSTER_SECRET_KEY = 'test-cluster-secret-key-shared-by-every-instance';

/**
 * A card signing key per database, as SQLite apps get one beside their file. With PostgreSQL the
 * generated key would be ./data's, one file every app of the run (and every test file running at
 * the same time) creates and reads; apps of one database (a cluster) share theirs.
 */
const cardKeyFiles = new Map<string, string>();
function cardKeyFileFor(databaseUrl: string, dataDir: string): string {
  let file = cardKeyFiles.get(databaseUrl);
  if (!file) {
    file = path.join(dataDir, 'card-signing-key.pem');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    cardKeyFiles.set(databaseUrl, file);
  }
  return file;
}

/** What PostgreSQL apps get unless the test sets it (a test of the generated key passes ''). */
function postgresDefaults(databaseUrl: string, dataDir: string, env: Record<string, string>): Record<string, string> {
  if (!databaseUrl.startsWith('postgres')) return {};
  const defaults: Record<string, string> = { SWITCHBOARD_SECRET_KEY: TEST_CLUSTER_SECRET_KEY };
  if (!('SWITCHBOARD_CARD_SIGNING_KEY' in env)) defaults.SWITCHBOARD_CARD_SIGNING_KEY = cardKeyFileFor(databaseUrl, dataDir);
  return defaults;
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

export function distDir(): string {
  return process.env.SWITCHBOARD_DIST_DIR || '.next';
}

/** What `next start` prints once its own listener is bound. */
const LISTENING = 'Ready in';

/**
 * Ready when this child said it listens and the health check answers. The first alone could
 * precede the app's start-up; the second alone could be another process's server that took the
 * port between freePort() and our bind (test files running in parallel, or anything else on a
 * shared machine: a port is only free until someone binds it).
 */
async function waitReady(url: string, child: ChildProcess, logs: () => string, listening: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode} before it was ready:\n${logs()}`);
    try {
      const res = listening() ? await fetch(`${url}/api/health`) : null;
      if (res?.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`app not ready after ${timeoutMs} ms:\n${logs()}`);
}

/** The first launch; a port taken between freePort() and the bind (EADDRINUSE) is chosen again, twice at most. */
async function launchOnFreePort(launch: () => Promise<void>, logs: () => string, mayMove: boolean, move: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch();
    } catch (err) {
      if (!mayMove || attempt >= 3 || !logs().includes('EADDRINUSE')) throw err;
      await move();
    }
  }
}

export interface StartOptions {
  dataDir?: string;
  port?: number;
  /** Flags for node itself (V8 flags are not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
}

export async function startApp(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<AppServer> {
  let port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-'));
  const databaseUrl = env.DATABASE_URL ?? (testStore() === 'postgresql' ? await freshPgDatabase() : `file:${path.join(dataDir, 'switchboard.db')}`);
  const fullEnv: Record<string, string> = {
    // In the `postgresql` Vitest project every app gets a database of its own on the test server.
    DATABASE_URL: databaseUrl,
    // PostgreSQL requires one secret key for the cluster; tests that check that pass their own (or '').
    ...postgresDefaults(databaseUrl, dataDir, env),
    SWITCHBOARD_LOG_LEVEL: 'warn',
    ...env,
  };
  let output = '';
  let child: ChildProcess;
  // Whether this launch's output said it listens: looked for in every chunk (a flood of other
  // output, e.g. --trace-gc-verbose, may come first), across chunk boundaries.
  let listening = false;
  let lastChars = '';
  const launch = async (extra: Record<string, string> = {}) => {
    listening = false;
    lastChars = '';
    child = spawn(process.execPath, [...(opts.nodeArgs ?? []), 'node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_MANUAL_SIG_HANDLE: 'true', SWITCHBOARD_DIST_DIR: distDir(), HOST: '127.0.0.1', PORT: String(port), ...fullEnv, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const append = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-200_000);
      if (!listening) {
        const text = lastChars + chunk.toString();
        listening = text.includes(LISTENING);
        lastChars = text.slice(-LISTENING.length);
      }
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    await waitReady(`http://127.0.0.1:${port}`, child, () => output, () => listening);
  };
  const exited = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
    });
  await launchOnFreePort(launch, () => output, opts.port === undefined, async () => {
    port = await freePort();
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    env: fullEnv,
    logs: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited();
    },
    signal(sig) {
      child.kill(sig);
    },
    exited,
    async kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited();
    },
    async restart(extraEnv = {}) {
      await launch(extraEnv);
    },
  };
}
