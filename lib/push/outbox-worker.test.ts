import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutboxWorker, type OutboxSource } from './outbox-worker';

/** An outbox of one item due at `dueAt`, counting how often the worker looks. */
function oneItemOutbox(dueAt: Date) {
  const looks = { due: 0, nextDue: 0 };
  const sent: string[] = [];
  const source: OutboxSource<string> = {
    due: () => {
      looks.due++;
      return Date.now() >= dueAt.getTime() && !sent.length ? ['item'] : [];
    },
    nextDue: () => {
      looks.nextDue++;
      return sent.length ? null : dueAt;
    },
    key: (item) => item,
    attempt: async (item) => void sent.push(item),
  };
  return { source, looks, sent };
}

describe('OutboxWorker', () => {
  afterEach(() => vi.useRealTimers());

  it('waits for a far due time without looking again meanwhile, then sends once', async () => {
    vi.useFakeTimers();
    const outbox = oneItemOutbox(new Date(Date.now() + 3_600_000));
    const worker = new OutboxWorker('test outbox', outbox.source);
    worker.kick();
    await vi.advanceTimersByTimeAsync(3_599_000);
    expect(outbox.looks).toEqual({ due: 1, nextDue: 1 }); // one look at the kick, none in the hour
    expect(outbox.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(outbox.sent).toEqual(['item']);
    await worker.stop();
  });
});
