/**
 * The SQLite files hold peer secrets and push credentials: a data folder we
 * create is 0700, and the database file is created 0600 before SQLite opens it (SQLite gives
 * its -wal, -shm and -journal files the database file's mode). Files left 0644 by an older
 * version are tightened. Whoever opens the database first (the server or `npm run keys`) goes
 * through here.
 */
import fs from 'node:fs';
import path from 'node:path';

export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

const SIDE_FILES = ['-wal', '-shm', '-journal'];

/** Makes the folder (0700 for every level it creates) and the file (0600), tightening old files. */
export function prepareDatabaseFile(file: string): void {
  if (file === ':memory:') return;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: DATA_DIR_MODE });
  fs.closeSync(fs.openSync(file, 'a', DATA_FILE_MODE));
  for (const candidate of [file, ...SIDE_FILES.map((suffix) => file + suffix)]) tighten(candidate);
}

/** Writes a new file readable by the owner only; fails if it exists (no clobbering a key). */
export function writePrivateFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: DATA_DIR_MODE });
  fs.writeFileSync(file, content, { mode: DATA_FILE_MODE, flag: 'wx' });
}

function tighten(file: string): void {
  try {
    const mode = fs.statSync(file).mode & 0o777;
    if (mode & 0o077) fs.chmodSync(file, mode & 0o700);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
