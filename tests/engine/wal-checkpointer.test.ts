/**
 * The WAL is copied back into the database file by the checkpoint worker, not by the writer's
 * commits on the event loop (whose auto-checkpoint is only a backstop at BACKSTOP_PAGES); once it
 * copied everything, it runs no pass until something is written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/in-process';
import { waitFor } from '../support/a2a-clients';

type Writer = typeof import('../../lib/engine/core/task-writer');
type Client = typeof import('../../lib/db/client');
type Checkpointer = typeof import('../../lib/db/sqlite/wal-checkpointer');
let writer: Writer;
let client: Client;
let checkpointer: Checkpointer;

beforeAll(async () => {
  useFreshDatabase();
  writer = await import('../../lib/engine/core/task-writer');
  client = await import('../../lib/db/client');
  checkpointer = await import('../../lib/db/sqlite/wal-checkpointer');
});

describe('WAL checkpoints', () => {
  it('are done by the worker thread while the writer only keeps a backstop', async () => {
    const tw = client.sqliteTaskWriter();
    expect(tw.conn.pragma('wal_autocheckpoint', { simple: true })).toBe(checkpointer.BACKSTOP_PAGES);
    await writer.createTaskRecord({ id: 'wal', contextId: 'ctx', direction: 'inbound', agentSlug: 'echo', state: 'working', requestText: 'x' }, []);
    const text = 'y'.repeat(4_000);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 1_500; i++) writes.push(writer.recordEvents('wal', [{ type: 'artifact', payload: { artifact: { artifactId: 'a', parts: [{ kind: 'text', text }] }, append: i > 0 } }]));
    await Promise.all(writes);
    // ~1,500 pages went into the log; the worker copies them back.
    await waitFor(async () => tw.checkpointer.checkpointedPages() >= 1_000, 10_000);
    expect(tw.checkpointer.checkpointedPages()).toBeGreaterThanOrEqual(1_000);
  });

  it('runs no pass while nothing is written, and passes again after a write', async () => {
    const tw = client.sqliteTaskWriter();
    await writer.createTaskRecord({ id: 'idle', contextId: 'ctx', direction: 'inbound', agentSlug: 'echo', state: 'working', requestText: 'x' }, []);
    // The passes stop once a pass found the whole log copied.
    let last = -1;
    await waitFor(async () => {
      const now = tw.checkpointer.passes();
      const unchanged = now === last;
      last = now;
      return unchanged;
    }, 10_000, 5 * checkpointer.CHECKPOINT_INTERVAL_MS);
    const idle = tw.checkpointer.passes();
    await new Promise((r) => setTimeout(r, 10 * checkpointer.CHECKPOINT_INTERVAL_MS)); // an observation period: ten intervals
    expect(tw.checkpointer.passes()).toBe(idle);
    await writer.recordEvents('idle', [{ type: 'artifact', payload: { artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'z' }] } } }]);
    await waitFor(async () => tw.checkpointer.passes() > idle);
  });
});
