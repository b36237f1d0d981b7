/**
 * The per-turn result file of a `process` launcher (`{result_file}` + `resultFile`,
 * docs/launchers.md): a fresh private path for each turn, read after the child exits, bounded,
 * and removed afterwards. It tells what stdout cannot: the session id, and whether the run
 * really completed (a run cut short by its own budget often still prints text and exits 0).
 */
import { constants } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tailForReason } from './reasons';
import { cleanSessionId, readDotPath } from './reply';
import type { ProcessLauncherSpec } from './spec';

export type ResultFileSpec = NonNullable<ProcessLauncherSpec['resultFile']>;

export interface TurnResultFile {
  /** Where the child is told to write; the file does not exist before it does. */
  readonly path: string;
  /** Removes the file and its private directory, whatever the child left there. */
  dispose(): Promise<void>;
}

/** A private directory (mode 0700) per turn, so no other user can plant or read the file. */
export async function createTurnResultFile(): Promise<TurnResultFile> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchboard-turn-'));
  return { path: path.join(dir, 'result.json'), dispose: () => rm(dir, { recursive: true, force: true }) };
}

export type ResultFileReading =
  | { kind: 'absent' }
  | { kind: 'invalid'; reason: string }
  /** `incomplete` is the program's own reason when the file says the run did not complete. */
  | { kind: 'read'; sessionId?: string; incomplete?: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function readResultFile(filePath: string, spec: ResultFileSpec): Promise<ResultFileReading> {
  const raw = await readBounded(filePath, spec.maxBytes);
  if (raw.kind !== 'bytes') return raw;
  let doc: unknown;
  try {
    doc = JSON.parse(utf8.decode(raw.bytes));
  } catch (error) {
    return { kind: 'invalid', reason: `result file is not valid UTF-8 JSON: ${(error as Error).message.slice(0, 200)}` };
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return { kind: 'invalid', reason: 'result file is not a JSON object' };
  const session = spec.sessionIdField === undefined ? undefined : readDotPath(doc, spec.sessionIdField);
  const sessionId = cleanSessionId(typeof session === 'string' || typeof session === 'number' ? String(session) : undefined);
  const incomplete = incompleteReason(doc, spec);
  return { kind: 'read', ...(sessionId ? { sessionId } : {}), ...(incomplete ? { incomplete } : {}) };
}

/** Why the file says the run did not complete, or undefined if it completed (or the config asks nothing). */
function incompleteReason(doc: object, spec: ResultFileSpec): string | undefined {
  const completed = spec.completedField === undefined ? true : readDotPath(doc, spec.completedField);
  const failed = spec.failedField === undefined ? false : readDotPath(doc, spec.failedField);
  if (completed === true && failed !== true) return undefined;
  for (const field of spec.reasonFields ?? []) {
    const value = readDotPath(doc, field);
    if (typeof value === 'string' && value.trim()) return tailForReason(value);
  }
  return failed === true ? `${spec.failedField} is true` : `${spec.completedField} is ${JSON.stringify(completed) ?? 'missing'}`;
}

type RawReading = { kind: 'bytes'; bytes: Buffer } | Exclude<ResultFileReading, { kind: 'read' }>;

/**
 * Reads at most `maxBytes` (+1 to detect more) from a regular file, not through a symbolic
 * link: what the child leaves at the path is untrusted, and memory must stay bounded.
 */
async function readBounded(filePath: string, maxBytes: number): Promise<RawReading> {
  let handle;
  try {
    handle = await open(filePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ELOOP') return { kind: 'invalid', reason: 'result file is a symbolic link; expected a regular file' };
    return { kind: 'invalid', reason: `result file could not be read (${code ?? (error as Error).message})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'invalid', reason: 'result file is not a regular file' };
    if (stats.size > maxBytes) return { kind: 'invalid', reason: tooLarge(stats.size, maxBytes) };
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return { kind: 'invalid', reason: tooLarge(length, maxBytes, 'at least ') };
    return { kind: 'bytes', bytes: buffer.subarray(0, length) };
  } finally {
    await handle.close();
  }
}

const tooLarge = (size: number, limit: number, prefix = '') =>
  `output limit exceeded: result file is ${prefix}${size} bytes (limit ${limit}, resultFile.maxBytes)`;
