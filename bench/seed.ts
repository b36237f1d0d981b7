/**
 * Seeds a Switchboard database with N finished-looking tasks and their events, written through
 * lib/db's own task writer (the same statements the server uses), spread over the last 30 days.
 * For scenario 5 (history at scale); also handy for trying the dashboard on a big history.
 *
 *   npx tsx bench/seed.ts <file.db> [count=100000]
 *
 * The mix: agents echo/slow/ask/budget inbound, and outbound tasks to two peers; 80% completed,
 * 10% failed, 5% canceled, 5% still working (half of them detached). Every request text carries
 * words from a small vocabulary plus one rare word in 1% of tasks ("zephyr"), so text search has
 * both frequent and rare hits. 5–7 events per task.
 */
import Database from 'better-sqlite3';
import { applyMigrations } from '../lib/db/sqlite/migrate';
import { newId } from '../lib/db/ids';
import { SqliteTaskWriter, sqliteTime } from '../lib/db/sqlite/writer';
import type { NewEvent, NewTask, TaskPatch } from '../lib/db/task-records';
import type { Message, TaskState } from '../lib/protocol/types';

const WORDS = ['invoice', 'report', 'summary', 'deploy', 'weather', 'translate', 'review', 'contract', 'schedule', 'budget', 'refactor', 'analysis'];
export const RARE_WORD = 'zephyr';
const DAY_MS = 86_400_000;

/** A small deterministic generator, so two seeds of the same size are the same data. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const textParts = (t: string) => [{ kind: 'text' as const, text: t }];

/** One seeded task: its insert, its artifact chunks, and how it ends (or stays working). */
export interface SeedTask {
  id: string;
  created: number;
  task: NewTask;
  events: NewEvent[];
  messages: Message[];
  chunks: NewEvent[];
  /** A finished task's last write; a working one may instead be detached. */
  end: { events: NewEvent[]; patch: TaskPatch; messages: Message[] } | null;
  detach: { events: NewEvent[]; patch: TaskPatch } | null;
}

/** The golden ratio's fraction: (i × it) mod 1 spreads every prefix of i evenly over [0, 1). */
const SPREAD = 0.618_033_988_749_895;

/**
 * The seed's tasks: the same sequence for the same count, whichever store they are written to.
 * `oldestFirst` (bench/seed.ts): ids, which are time-ordered, and createdAt agree, as in real
 * use. Otherwise (bench/seed-pg.ts, which may stop before `count` when time runs out) each
 * task's creation time is spread so that the tasks written so far cover the 30 days evenly, and
 * its ids are of the moment they are written, so every index keyed by task id still grows at
 * its right edge.
 */
export function* seedTasks(count: number, oldestFirst = true, now = Date.now()): Generator<SeedTask> {
  const random = rng(count);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  for (let i = 0; i < count; i++) {
    const at = oldestFirst ? (i + random()) / count : (((i + random()) * SPREAD) % 1);
    const created = now - 30 * DAY_MS + Math.floor(at * 30 * DAY_MS);
    const idAt = oldestFirst ? created : Date.now();
    const id = newId(idAt);
    const outbound = random() < 0.2;
    const words = `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}${random() < 0.01 ? ` ${RARE_WORD}` : ''}`;
    const request = `please ${words} for customer ${Math.floor(random() * 5000)}`;
    const message: Message = { kind: 'message', messageId: newId(idAt), role: 'user', parts: textParts(request), taskId: id, contextId: id };
    const task: NewTask = outbound
      ? { id, contextId: newId(idAt), direction: 'outbound', peerName: pick(['lab', 'hermes']), peerUrl: 'http://127.0.0.1:9/a2a/echo', state: 'working', requestText: request }
      : { id, contextId: newId(idAt), direction: 'inbound', agentSlug: pick(['echo', 'slow', 'ask', 'budget']), state: 'working', requestText: request };
    const events: NewEvent[] = [
      { type: 'submitted', state: 'submitted', payload: { message, peer: 'seed' } },
      { type: 'status', state: 'working', payload: {} },
    ];
    const roll = random();
    const state: TaskState = roll < 0.8 ? 'completed' : roll < 0.9 ? 'failed' : roll < 0.95 ? 'canceled' : 'working';
    const chunks: NewEvent[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, c) => ({
      type: 'artifact',
      payload: { artifact: { artifactId: 'result', name: 'result', parts: textParts(`result part ${c + 1} of the ${words} for ${id.slice(0, 8)}\n`) }, append: c > 0 },
    }));
    let end: SeedTask['end'] = null;
    let detach: SeedTask['detach'] = null;
    if (state === 'working') {
      if (random() < 0.5) detach = { events: [{ type: 'detached', state: 'working', payload: { reason: 'response window ended' } }], patch: { detached: true, detachedAt: new Date(created + 300_000) } };
    } else {
      const reason = state === 'failed' ? pick(['iteration budget exhausted', 'agent error: timeout', 'late-result grace exceeded']) : state === 'canceled' ? 'canceled by request' : undefined;
      const endMessage: Message = { kind: 'message', messageId: newId(idAt), role: 'agent', parts: textParts(reason ? `Task ${state}: ${reason}.` : `done: ${words}`), taskId: id };
      end = { events: [{ type: 'status', state, payload: { message: endMessage, reason } }], patch: { state, statusMessage: endMessage, endReason: reason ?? null, endedAt: new Date(created + 2_000) }, messages: [endMessage] };
    }
    yield { id, created, task, events, messages: [message], chunks, end, detach };
  }
}

export function seed(file: string, count: number, log: (m: string) => void = () => {}): { ids: string[] } {
  applyMigrations(file);
  const writer = new SqliteTaskWriter(file);
  const setTimes = writer.conn.prepare('UPDATE "Task" SET "createdAt" = ?, "updatedAt" = ?, "endedAt" = CASE WHEN "endedAt" IS NULL THEN NULL ELSE ? END WHERE "id" = ?');
  const setEventTimes = writer.conn.prepare('UPDATE "TaskEvent" SET "at" = ? WHERE "taskId" = ?');
  const ids: string[] = [];
  const tasks = seedTasks(count);
  const batch = writer.conn.transaction((n: number) => {
    for (let k = 0; k < n; k++) {
      const t = tasks.next().value as SeedTask;
      ids.push(t.id);
      writer.insertTask(t.task, t.events, t.messages);
      writer.append(t.id, t.chunks, {}, { onlyIfStateIn: ['working'] }, [], false);
      if (t.detach) writer.append(t.id, t.detach.events, t.detach.patch, {}, [], false);
      if (t.end) writer.append(t.id, t.end.events, t.end.patch, { onlyIfNotTerminal: true }, t.end.messages, true);
      setTimes.run(sqliteTime(new Date(t.created)), sqliteTime(new Date(t.created + 2_000)), sqliteTime(new Date(t.created + 2_000)), t.id);
      setEventTimes.run(sqliteTime(new Date(t.created)), t.id);
    }
  });
  const started = Date.now();
  for (let i = 0; i < count; i += 1000) {
    batch(Math.min(count, i + 1000) - i);
    if ((i + 1000) % 20_000 === 0) log(`seeded ${i + 1000} tasks (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  writer.conn.pragma('wal_checkpoint(TRUNCATE)');
  writer.close();
  return { ids };
}

/** Some task ids of a seeded file, spread over its history (the task page's probe picks one). */
export function storedIds(file: string): string[] {
  const conn = new Database(file, { readonly: true });
  try {
    // Every 97th rowid, looked up one by one (a filter on rowid would read every task).
    const ids = conn.prepare(`WITH RECURSIVE "r"("n") AS (SELECT 97 UNION ALL SELECT "n" + 97 FROM "r" WHERE "n" + 97 <= (SELECT MAX(rowid) FROM "Task"))
SELECT "id" FROM "r" JOIN "Task" ON "Task".rowid = "r"."n"`);
    return (ids.all() as { id: string }[]).map((r) => r.id);
  } finally {
    conn.close();
  }
}

if (process.argv[1]?.endsWith('seed.ts')) {
  const [file, count = '100000'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: npx tsx bench/seed.ts <file.db> [count]\n');
    process.exit(2);
  }
  const t = Date.now();
  seed(file, Number(count), (m) => process.stderr.write(`${m}\n`));
  process.stderr.write(`seeded ${count} tasks into ${file} in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
}
