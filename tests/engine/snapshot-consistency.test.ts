/**
 * A stream sends a task snapshot, then every event after the snapshot's seq. The snapshot must
 * therefore hold exactly the artifact chunks up to that seq: a chunk committed after the record
 * was read would otherwise reach the client twice (once in the snapshot, once replayed).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

let writer: typeof import('../../lib/engine/core/task-writer');
let snapshot: typeof import('../../lib/engine/core/snapshot');

beforeAll(async () => {
  await freshStore();
  writer = await import('../../lib/engine/core/task-writer');
  snapshot = await import('../../lib/engine/core/snapshot');
});

const chunk = (text: string, append: boolean) => ({ artifact: { artifactId: 'a', parts: [{ kind: 'text' as const, text }] }, append });

describe('task snapshots', () => {
  it('hold the artifact chunks up to the record’s seq, not the ones committed after it', async () => {
    const id = crypto.randomUUID();
    const created = await writer.createTaskRecord(
      { id, contextId: 'c', direction: 'inbound', agentSlug: 'test', state: 'working', requestText: 'x' },
      [{ type: 'status', state: 'working', payload: {} }],
    );
    const first = await writer.recordEvents(id, [{ type: 'artifact', payload: chunk('one ', true) }]);
    await writer.recordEvents(id, [{ type: 'artifact', payload: chunk('two', true) }]);
    const early = await snapshot.buildTask(created.task);
    expect(early.artifacts).toEqual([]);
    const middle = await snapshot.buildTask(first!.task);
    expect(middle.artifacts?.[0].parts.map((p) => (p.kind === 'text' ? p.text : ''))).toEqual(['one ']);
  });
});
