/**
 * WAL checkpoints off the event loop. SQLite copies the write-ahead log back into the database
 * file (and syncs it) once the log passes ~1,000 pages, inside whichever commit crosses the
 * line: on the writer's connection that is the event loop, stalled while sends and streams wait.
 * A worker thread with its own connection checkpoints instead (PASSIVE, so it never blocks the
 * writer) every CHECKPOINT_INTERVAL_MS. The writer keeps an auto-checkpoint at a larger size as
 * a backstop: it restarts the log when the worker has copied nearly all of it, and bounds the
 * log should the worker fall behind or die. Once a pass found the whole log copied, the worker
 * skips its passes until the log file changes (its size or mtime): an idle server runs none.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { log } from '../../log';
import { countQueries } from '../query-counter';

export const CHECKPOINT_INTERVAL_MS = 200;
/** The writer's own auto-checkpoint, in pages (4 KiB): ~40 MB of log at most. */
export const BACKSTOP_PAGES = 10_000;

// Plain CommonJS evaluated in the worker: better-sqlite3 is resolved from the app's directory
// (it is a server-external package, so it is in node_modules at run time).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const fs = require('node:fs');
const Database = createRequire(workerData.base)('better-sqlite3');
const db = new Database(workerData.file, { timeout: 1000 });
let failures = 0;
let last = { log: 0, checkpointed: 0 };
// The log file's size and mtime when a pass last found all of it copied (null: not yet).
let allCopiedAt = null;
const logFileState = () => {
  try {
    const s = fs.statSync(workerData.file + '-wal');
    return s.size + ':' + s.mtimeMs;
  } catch {
    return 'none';
  }
};
setInterval(() => {
  const logFile = logFileState();
  if (logFile === allCopiedAt) return; // nothing written since: an idle server runs no pass
  try {
    // The pragma reports totals for the current log; a shorter log than last time is a new one.
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    const copied = r.checkpointed - (r.log >= last.log ? last.checkpointed : 0);
    last = r;
    allCopiedAt = r.busy === 0 && r.checkpointed === r.log ? logFile : null;
    parentPort.postMessage({ checkpointed: Math.max(0, copied) });
    failures = 0;
  } catch (err) {
    if (failures++ === 0) parentPort.postMessage({ error: String((err && err.message) || err) });
  }
}, workerData.intervalMs);
`;

export interface WalCheckpointer {
  /** Pages copied into the database file so far (for tests and diagnostics). */
  checkpointedPages(): number;
  /** Checkpoint passes (PRAGMAs) run so far. */
  passes(): number;
  stop(): Promise<void>;
}

export function startWalCheckpointer(file: string): WalCheckpointer {
  let pages = 0;
  let passes = 0;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [], // not the server's flags (a CPU profile of the main thread, for one)
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 }, // it holds next to nothing
    workerData: { file, base: path.join(process.cwd(), 'package.json'), intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref(); // never what keeps the process alive
  worker.on('message', (m: { checkpointed?: number; error?: string }) => {
    if (m.error) log.warn('WAL checkpoint failed; the writer checkpoints itself past the backstop', { file, error: m.error });
    else {
      passes++;
      countQueries('checkpoints');
      pages += Math.max(0, m.checkpointed ?? 0);
    }
  });
  worker.on('error', (err) => log.warn('WAL checkpoint worker stopped; the writer checkpoints itself past the backstop', { file, error: err.message }));
  return {
    checkpointedPages: () => pages,
    passes: () => passes,
    stop: async () => {
      await worker.terminate();
    },
  };
}
