/**
 * The WAL is copied back into the database file by the checkpoint worker, not by the writer's
 * commits on the event loop (whose auto-checkpoint is only a backstop at BACKSTOP_PAGES).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/in-process';
import { waitFor } from '../support/a2a-clients';

type Writer = typeof import('../../lib/engine/task-writer');
type Client = typeof import('../../lib/db/client');
type Checkpointer = typeof import('../../lib/db/wal-checkpointer');
let writer: Writer;
let client: Client;
let checkpointer: Checkpointer;

beforeAll(async () => {
  useFreshDatabase();
  writer = await import('../../lib/engine/task-writer');
  client = await import('../../lib/db/client');
  checkpointer = await import('../../lib/db/wal-checkpointer');
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
});
