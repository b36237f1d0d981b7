/**
 * One rule for how events make a task's summary (lib/protocol/summary-rule.ts). The writer's row
 * (what the list and the feed show), the browser's reducer (what the task page shows live) and
 * the command line's progress view must agree after every event. The writer is given no summary
 * fields (its patch type has none): it derives them from the events, as the others do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freshStore } from '../support/in-process';
import type { NewEvent } from '../../lib/db/task-records';
import type { TaskDetail } from '../../lib/dashboard/wire';
import type { Message, TaskState } from '../../lib/protocol/types';

let writer: typeof import('../../lib/engine/core/task-writer');
let detail: typeof import('../../lib/dashboard/task-detail');
let reducer: typeof import('../../lib/query/task-reducer');
let cli: typeof import('../../lib/cli/follow-view');

beforeAll(async () => {
  await freshStore();
  writer = await import('../../lib/engine/core/task-writer');
  detail = await import('../../lib/dashboard/task-detail');
  reducer = await import('../../lib/query/task-reducer');
  cli = await import('../../lib/cli/follow-view');
});

const message = (role: 'user' | 'agent', text: string): Message => ({ kind: 'message', messageId: crypto.randomUUID(), role, parts: [{ kind: 'text', text }] });

const SUMMARY_FIELDS = ['state', 'displayState', 'detached', 'statusText', 'endReason', 'lastSeq'] as const;
/** The summary fields, times as whether they are set (the row and an event's `at` are stamped apart). */
const summaryOf = ({ task }: Pick<TaskDetail, 'task'>) => ({
  ...(Object.fromEntries(SUMMARY_FIELDS.map((k) => [k, task[k]])) as Pick<TaskDetail['task'], (typeof SUMMARY_FIELDS)[number]>),
  detachedAt: task.detachedAt !== null,
  endedAt: task.endedAt !== null,
});

const silent = { write: () => true };

/** One task followed three ways: the server's row, the browser's live detail, the CLI's view. */
async function follow(id: string) {
  let live = (await detail.loadTaskDetail(id))!;
  const view = new cli.ProgressView(id, silent, null, false);
  view.onTask(live);
  return {
    async step(events: NewEvent[]) {
      await writer.recordEvents(id, events);
      const server = (await detail.loadTaskDetail(id))!;
      const added = server.events.filter((e) => e.seq > live.task.lastSeq);
      live = reducer.applyTaskEvents(live, added);
      for (const e of added) view.onEvent(e);
      return { server: summaryOf(server), browser: summaryOf(live), cli: view.shown(), serverLine: { state: server.task.state, status: server.task.statusText } };
    },
    stop: () => view.stop(),
  };
}

async function newTask(direction: 'inbound' | 'outbound') {
  const id = crypto.randomUUID();
  const ask = message('user', 'greet me');
  const owner = direction === 'inbound' ? { agentSlug: 'echo' } : { peerName: 'b' };
  await writer.createTaskRecord({ id, contextId: crypto.randomUUID(), direction, ...owner, state: 'submitted', requestText: 'greet me' }, [
    { type: 'submitted', state: 'submitted', payload: { message: ask } },
  ]);
  return id;
}

const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('  two\n lines ', 'x'.repeat(300), 'What is your name?'));
const maybeMessage = fc.option(text.map((t) => message('agent', t)), { nil: undefined });
const withMessage = (m: Message | undefined) => (m ? { message: m } : {});

/** Any event a task may record while it runs, in any order. */
const runningEvent: fc.Arbitrary<NewEvent> = fc.oneof(
  fc.record({ state: fc.constantFrom<TaskState>('working', 'input-required', 'auth-required'), m: maybeMessage }).map(({ state, m }): NewEvent => ({ type: 'status', state, payload: withMessage(m) })),
  maybeMessage.map((m): NewEvent => ({ type: 'detached', state: 'working', payload: { reason: 'response window', ...withMessage(m) } })),
  fc.record({ remote: fc.boolean(), t: text }).map(({ remote, t }): NewEvent => ({ type: 'message', payload: { message: message(remote ? 'agent' : 'user', t), ...(remote ? { remote } : {}) } })),
  text.map((t): NewEvent => ({ type: 'artifact', payload: { artifact: { artifactId: 'a', parts: [{ kind: 'text', text: t }] }, append: true } })),
  fc.constant<NewEvent>({ type: 'reattached', payload: { via: 'tasks/resubscribe' } }),
  fc.constant<NewEvent>({ type: 'remote', payload: { event: 'note', note: 'a note' } }),
);
const endEvent = fc
  .record({ state: fc.constantFrom<TaskState>('completed', 'failed', 'canceled', 'rejected'), m: maybeMessage, reason: fc.option(fc.constantFrom('interrupted: restart', 'agent error: boom'), { nil: undefined }) })
  .map(({ state, m, reason }): NewEvent => ({ type: 'status', state, payload: { ...withMessage(m), ...(reason ? { reason } : {}) } }));

const run = fc.record({
  direction: fc.constantFrom('inbound' as const, 'outbound' as const),
  batches: fc.array(fc.array(runningEvent, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
  end: fc.option(endEvent, { nil: undefined }),
});

describe('event → task summary: writer, browser and command line', () => {
  it('agree after every batch of any event sequence', async () => {
    await fc.assert(
      fc.asyncProperty(run, async ({ direction, batches, end }) => {
        const task = await follow(await newTask(direction));
        try {
          for (const batch of [...batches, ...(end ? [[end]] : [])]) {
            const seen = await task.step(batch);
            expect(seen.browser).toEqual(seen.server);
            expect(seen.cli).toEqual(seen.serverLine);
          }
        } finally {
          task.stop();
        }
      }),
      { numRuns: 40, seed: 23 },
    );
  });

  it('an outbound follow-up clears detached and the question; a peer message changes nothing', async () => {
    const task = await follow(await newTask('outbound'));
    const detached = await task.step([{ type: 'detached', state: 'working', payload: { reason: 'client timeout after 0.5 s' } }]);
    expect(detached.server).toMatchObject({ state: 'working', detached: true, displayState: 'detached', detachedAt: true });

    const peerSaid = await task.step([{ type: 'message', payload: { message: message('agent', 'thinking'), remote: true } }]);
    expect(peerSaid.server).toMatchObject({ detached: true });
    expect(peerSaid.browser).toEqual(peerSaid.server);

    const question = await task.step([{ type: 'status', state: 'input-required', payload: { message: message('agent', 'What is your name?') } }]);
    expect(question.server).toMatchObject({ state: 'input-required', displayState: 'detached', statusText: 'What is your name?' });

    // What lib/engine/outbound/dispatch.ts followUp records.
    const followUp = await task.step([
      { type: 'message', payload: { message: message('user', 'Ada'), mode: 'blocking' } },
      { type: 'status', state: 'working', payload: {} },
    ]);
    expect(followUp.server).toMatchObject({ state: 'working', displayState: 'working', detached: false, statusText: '' });
    expect(followUp.browser).toEqual(followUp.server);
    task.stop();
  });

  it('a status without a message clears the last one (a status replaces the whole status, as in A2A)', async () => {
    const task = await follow(await newTask('outbound'));
    const progress = await task.step([{ type: 'status', state: 'working', payload: { message: message('agent', '50% done') } }]);
    expect(progress.server.statusText).toBe('50% done');
    const bare = await task.step([{ type: 'status', state: 'working', payload: {} }]);
    expect(bare.server.statusText).toBe('');
    expect(bare.browser).toEqual(bare.server);
    expect(bare.cli).toEqual({ state: 'working', status: '' });
    const ended = await task.step([{ type: 'status', state: 'failed', payload: { reason: 'agent error: boom' } }]);
    expect(ended.server).toMatchObject({ state: 'failed', endReason: 'agent error: boom', endedAt: true });
    expect(ended.browser).toEqual(ended.server);
    task.stop();
  });
});
