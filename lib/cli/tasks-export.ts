/**
 * `switchboard tasks export`: pages GET /api/tasks/export to the end and writes every line, each
 * checked to be a whole task before it is written. Into --out, the lines go to `<out>.partial`,
 * renamed to `<out>` once the last page arrived whole: a file named like the export is complete,
 * a cut connection leaves none (and exits non-zero).
 */
import fs from 'node:fs';
import { EXPORT_LIMIT_MAX, EXPORT_NEXT_CURSOR_HEADER, TaskExportLineSchema, type DisplayState } from '../dashboard/wire';
import { withQuery } from '../query/api-client';
import { CliError, headersFor, refusal, unreachable, type ApiTarget } from './api';
import { EXIT } from './exit-codes';

export interface ExportFilter {
  /** ISO time: tasks created at or after it. */
  since?: string;
  state?: DisplayState;
}

/** Where the lines go; resolves once the line is taken (backpressure). */
type LineSink = (line: string) => Promise<void>;

const cutShort = (why: string) => new CliError(`the export was cut short (${why}); nothing was kept, run it again`, EXIT.error, 'cut_short');

async function* bodyLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  const reader = body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (err) {
      throw cutShort(err instanceof Error ? err.message : String(err));
    }
    if (chunk.done) break;
    pending += decoder.decode(chunk.value, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    yield* lines;
  }
  if (pending) throw cutShort('the last line ended early');
}

async function exportPage(target: ApiTarget, filter: ExportFilter, cursor: string | undefined, write: LineSink): Promise<{ count: number; next?: string }> {
  const path = withQuery('/api/tasks/export', { since: filter.since, state: filter.state, cursor, limit: EXPORT_LIMIT_MAX });
  let res: Response;
  try {
    res = await fetch(`${target.baseUrl}${path}`, { headers: headersFor(target, { Accept: 'application/x-ndjson' }) });
  } catch (err) {
    throw unreachable(target, err);
  }
  if (!res.ok) throw await refusal(target, res);
  if (!res.body) throw cutShort('no body');
  let count = 0;
  for await (const line of bodyLines(res.body)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw cutShort('a line is not JSON');
    }
    if (!TaskExportLineSchema.safeParse(parsed).success) throw new CliError(`unexpected line from ${path}: is ${target.baseUrl} a Switchboard?`, EXIT.error, 'bad_answer');
    await write(`${line}\n`);
    count++;
  }
  return { count, next: res.headers.get(EXPORT_NEXT_CURSOR_HEADER) ?? undefined };
}

/** Writes every task matching `filter` to `write`, page by page; how many. */
export async function exportTasks(target: ApiTarget, filter: ExportFilter, write: LineSink): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  do {
    const page = await exportPage(target, filter, cursor, write);
    total += page.count;
    cursor = page.next;
  } while (cursor);
  return total;
}

function sinkOf(stream: NodeJS.WritableStream): LineSink {
  return (line) => new Promise((resolve, reject) => {
    const ok = stream.write(line, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else stream.once('drain', resolve);
  });
}

/** Into `out` (complete or not at all), or onto stdout without one. */
export async function exportTasksTo(target: ApiTarget, filter: ExportFilter, out: string | undefined): Promise<number> {
  if (!out) return exportTasks(target, filter, sinkOf(process.stdout));
  const partial = `${out}.partial`;
  let fd: number;
  try {
    fd = fs.openSync(partial, 'w', 0o600);
  } catch (err) {
    throw new CliError(`--out: cannot write ${partial} (${(err as NodeJS.ErrnoException).code ?? String(err)})`, EXIT.usage, 'bad_out');
  }
  const file = fs.createWriteStream(partial, { fd });
  file.on('error', () => {}); // a failed write also rejects its own callback, which ends the export
  try {
    const count = await exportTasks(target, filter, sinkOf(file));
    await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    fs.renameSync(partial, out);
    return count;
  } catch (err) {
    file.destroy();
    fs.rmSync(partial, { force: true });
    throw err;
  }
}
