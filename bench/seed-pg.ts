/**
 * Seeds the configured PostgreSQL database with N tasks through lib/db's task repository (the
 * server's own write path: the PostgreSQL writer's group commits), in the mix of bench/seed.ts:
 * 80% of inbound and outbound tasks completed, 10% failed, 5% canceled, 5% still working (half
 * of them detached), 1% with the rare word, then spread over the last 30 days.
 */
import { newId } from '../lib/db/ids';
import { appendEvents, insertTask } from '../lib/db/task-repo';
import { pgQuery } from '../lib/db/client';
import type { TaskState } from '../lib/protocol/types';
import { RARE_WORD } from './seed';

const WORDS = ['invoice', 'report', 'summary', 'deploy', 'weather', 'translate', 'review', 'contract'];
const CONCURRENT = 200;

async function oneTask(i: number): Promise<string> {
  const id = newId();
  const roll = (i * 7919) % 100;
  const outbound = i % 5 === 0;
  const words = `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]}${i % 100 === 7 ? ` ${RARE_WORD}` : ''}`;
  const request = `please ${words} for customer ${i % 5000}`;
  const message = { kind: 'message' as const, messageId: newId(), role: 'user' as const, parts: [{ kind: 'text' as const, text: request }] };
  await insertTask(
    outbound
      ? { id, contextId: newId(), direction: 'outbound', peerName: i % 2 ? 'lab' : 'hermes', peerUrl: 'http://127.0.0.1:9/a2a/echo', state: 'working', requestText: request }
      : { id, contextId: newId(), direction: 'inbound', agentSlug: ['echo', 'slow', 'ask', 'budget'][i % 4], state: 'working', requestText: request },
    [{ type: 'submitted', state: 'submitted', payload: { message } }, { type: 'status', state: 'working', payload: {} }],
    [message],
  );
  await appendEvents(id, [{ type: 'artifact', payload: { artifact: { artifactId: 'result', parts: [{ kind: 'text', text: `result of ${words}` }] }, lastChunk: true } }]);
  const state: TaskState = roll < 80 ? 'completed' : roll < 90 ? 'failed' : roll < 95 ? 'canceled' : 'working';
  if (state === 'working') {
    if (roll % 2) await appendEvents(id, [{ type: 'detached', state: 'working', payload: { reason: 'response window ended' } }], { patch: { detached: true, detachedAt: new Date() } });
  } else {
    await appendEvents(id, [{ type: 'status', state, payload: {} }], { onlyIfNotTerminal: true, materializeArtifacts: true, patch: { state, endedAt: new Date() } });
  }
  return id;
}

export async function seedPg(count: number, log: (m: string) => void = () => {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += CONCURRENT) {
    ids.push(...(await Promise.all(Array.from({ length: Math.min(CONCURRENT, count - i) }, (_, k) => oneTask(i + k)))));
    if ((i + CONCURRENT) % 10_000 === 0) log(`seeded ${i + CONCURRENT} tasks`);
  }
  // Spread over 30 days, as bench/seed.ts does: the time filters then select a part.
  await pgQuery('UPDATE "Task" SET "createdAt" = now() - random() * interval \'30 days\'');
  await pgQuery('UPDATE "Task" SET "updatedAt" = "createdAt" + interval \'2 seconds\', "endedAt" = CASE WHEN "endedAt" IS NULL THEN NULL ELSE "createdAt" + interval \'2 seconds\' END');
  return ids;
}
