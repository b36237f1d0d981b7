/**
 * Exactly-once end. Cancel and completion fired at the same instant, hundreds
 * of times: every task has exactly one terminal event, and its state matches that event.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore, onlyTask } from '../support/in-process';
import { waitFor } from '../support/a2a-clients';

type Engine = typeof import('../../lib/engine/inbound/operations');
type Repo = typeof import('../../lib/db/task-repo');
type Cancel = typeof import('../../lib/engine/cancel');
type Writer = typeof import('../../lib/engine/core/task-writer');
let engine: Engine;
let repo: Repo;
let cancel: Cancel['cancel'];
let scopeOf: (agent: string) => import('../../lib/db/task-scope').CallerScope;
let writer: Writer;
let agents: typeof import('../../lib/agents/builtin-agents');

beforeAll(async () => {
  await freshStore({ SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_LATE_RESULT_GRACE: '30' });
  engine = await import('../../lib/engine/inbound/operations');
  repo = await import('../../lib/db/task-repo');
  ({ cancel } = await import('../../lib/engine/cancel'));
  const { callerScope } = await import('../../lib/db/task-scope');
  scopeOf = (agent) => callerScope(agent, 'anonymous');
  writer = await import('../../lib/engine/core/task-writer');
  agents = await import('../../lib/agents/builtin-agents');
});

const message = (text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }] });

async function terminalEvents(taskId: string) {
  const events = await repo.listEvents(taskId);
  return events.filter((e) => e.type === 'status' && e.state && ['completed', 'failed', 'canceled', 'rejected'].includes(e.state));
}

describe('the terminal claim', () => {
  it('lets exactly one of many simultaneous claims win', async () => {
    const slow = agents.builtinAgents().find((a) => a.slug === 'slow')!;
    const task = onlyTask(await engine.sendMessage({ agent: slow, scope: scopeOf(slow.slug), message: message('work 60s'), peer: 'test' }, 'non-blocking'));
    const claims = await Promise.all(
      (['completed', 'failed', 'canceled', 'completed', 'failed'] as const).map((state) => writer.claimTerminal(task.id, { state, reason: state === 'completed' ? undefined : `racer ${state}` })),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const record = await repo.findTask(task.id);
    const ends = await terminalEvents(task.id);
    expect(ends).toHaveLength(1);
    expect(record!.state).toBe(ends[0].state);
    await cancel(task.id, scopeOf('slow')).catch(() => undefined);
  });

  it('cancel racing completion, 300 times: one terminal event per task, matching the task state', async () => {
    const slow = agents.builtinAgents().find((a) => a.slug === 'slow')!;
    const ids: string[] = [];
    const outcomes = { canceledWins: 0, completedWins: 0, cancelRefused: 0 };
    await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const task = onlyTask(await engine.sendMessage({ agent: slow, scope: scopeOf(slow.slug), message: message(i % 3 === 0 ? 'work 5s chunks 1' : `work ${(i % 7) * 2}ms chunks 1`), peer: 'race' }, 'non-blocking'));
        ids.push(task.id);
        await new Promise((r) => setTimeout(r, (i * 7) % 13));
        try {
          const after = await cancel(task.id, scopeOf('slow'));
          if (after.status.state === 'canceled') outcomes.canceledWins++;
          else outcomes.completedWins++;
        } catch {
          outcomes.cancelRefused++;
        }
      }),
    );
    // Every task ends (a cancel that lost still lets the completion land): wait for that, then
    // check that each ended exactly once.
    await waitFor(async () => (await Promise.all(ids.map((id) => repo.findTask(id)))).every((r) => r?.endedAt));
    for (const id of ids) {
      const ends = await terminalEvents(id);
      const record = await repo.findTask(id);
      expect(ends, `task ${id}`).toHaveLength(1);
      expect(record!.state).toBe(ends[0].state);
      expect(record!.endedAt).not.toBeNull();
    }
    // Both orders happened (the long tasks guarantee cancel wins some, however long 300 sends
    // take to answer on a busy machine), so the race was real.
    expect(outcomes.canceledWins).toBeGreaterThan(0);
    expect(outcomes.completedWins + outcomes.cancelRefused).toBeGreaterThan(0);
  });

  it('a loser changes nothing: no event, no state change', async () => {
    const echo = agents.builtinAgents().find((a) => a.slug === 'echo')!;
    const task = onlyTask(await engine.sendMessage({ agent: echo, scope: scopeOf(echo.slug), message: message('hi'), peer: 'test' }, 'blocking'));
    expect(task.status.state).toBe('completed');
    const before = await repo.findTask(task.id);
    const lost = await writer.claimTerminal(task.id, { state: 'failed', reason: 'too late' });
    expect(lost).toBeNull();
    const after = await repo.findTask(task.id);
    expect(after).toEqual(before);
    await expect(cancel(task.id, scopeOf('echo'))).rejects.toMatchObject({ code: -32002 });
  });
});
