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
import type { NewEvent, TaskPatch } from '../lib/db/task-records';
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

export function seed(file: string, count: number, log: (m: string) => void = () => {}): { ids: string[] } {
  applyMigrations(file);
  const writer = new SqliteTaskWriter(file);
  const random = rng(count);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const setTimes = writer.conn.prepare('UPDATE "Task" SET "createdAt" = ?, "updatedAt" = ?, "endedAt" = CASE WHEN "endedAt" IS NULL THEN NULL ELSE ? END WHERE "id" = ?');
  const setEventTimes = writer.conn.prepare('UPDATE "TaskEvent" SET "at" = ? WHERE "taskId" = ?');
  const ids: string[] = [];
  const now = Date.now();
  const batch = writer.conn.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // Oldest first, so ids (time-ordered) and createdAt agree, as in real use.
      const created = now - 30 * DAY_MS + Math.floor(((i + random()) / count) * 30 * DAY_MS);
      const id = newId(created);
      ids.push(id);
      const outbound = random() < 0.2;
      const words = `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}${random() < 0.01 ? ` ${RARE_WORD}` : ''}`;
      const request = `please ${words} for customer ${Math.floor(random() * 5000)}`;
      const message: Message = { kind: 'message', messageId: newId(created), role: 'user', parts: textParts(request), taskId: id, contextId: id };
      writer.insertTask(
        outbound
          ? { id, contextId: newId(created), direction: 'outbound', peerName: pick(['lab', 'hermes']), peerUrl: 'http://127.0.0.1:9/a2a/echo', state: 'working', requestText: request }
          : { id, contextId: newId(created), direction: 'inbound', agentSlug: pick(['echo', 'slow', 'ask', 'budget']), state: 'working', requestText: request },
        [
          { type: 'submitted', state: 'submitted', payload: { message, peer: 'seed' } },
          { type: 'status', state: 'working', payload: {} },
        ],
        [message],
      );
      const roll = random();
      const state: TaskState = roll < 0.8 ? 'completed' : roll < 0.9 ? 'failed' : roll < 0.95 ? 'canceled' : 'working';
      const chunks: NewEvent[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, c) => ({
        type: 'artifact',
        payload: { artifact: { artifactId: 'result', name: 'result', parts: textParts(`result part ${c + 1} of the ${words} for ${id.slice(0, 8)}\n`) }, append: c > 0 },
      }));
      writer.append(id, chunks, {}, { onlyIfStateIn: ['working'] }, [], false);
      if (state === 'working') {
        if (random() < 0.5) writer.append(id, [{ type: 'detached', state: 'working', payload: { reason: 'response window ended' } }], { detached: true, detachedAt: new Date(created + 300_000) }, {}, [], false);
      } else {
        const reason = state === 'failed' ? pick(['iteration budget exhausted', 'agent error: timeout', 'late-result grace exceeded']) : state === 'canceled' ? 'canceled by request' : undefined;
        const end: Message = { kind: 'message', messageId: newId(created), role: 'agent', parts: textParts(reason ? `Task ${state}: ${reason}.` : `done: ${words}`), taskId: id };
        const patch: TaskPatch = { state, statusMessage: end, endReason: reason ?? null, endedAt: new Date(created + 2_000) };
        writer.append(id, [{ type: 'status', state, payload: { message: end, reason } }], patch, { onlyIfNotTerminal: true }, [end], true);
      }
      setTimes.run(sqliteTime(new Date(created)), sqliteTime(new Date(created + 2_000)), sqliteTime(new Date(created + 2_000)), id);
      setEventTimes.run(sqliteTime(new Date(created)), id);
    }
  });
  const started = Date.now();
  for (let i = 0; i < count; i += 1000) {
    batch(i, Math.min(count, i + 1000));
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
