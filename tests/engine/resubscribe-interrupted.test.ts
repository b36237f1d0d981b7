/**
 * Resubscribing to a task that waits for input keeps the
 * stream open until the task is terminal (v1.0 §3.1.6; v0.3 alike, decision 160). The answer's
 * turn comes over it, and `final` marks only the terminal status.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { onlyTask, useFreshDatabase } from '../support/in-process';

let engine: typeof import('../../lib/engine/inbound/operations');
let agents: typeof import('../../lib/agents/builtin-agents');
let scopes: typeof import('../../lib/db/task-scope');

beforeAll(async () => {
  useFreshDatabase({ SWITCHBOARD_RESPONSE_WINDOW: '5' });
  engine = await import('../../lib/engine/inbound/operations');
  agents = await import('../../lib/agents/builtin-agents');
  scopes = await import('../../lib/db/task-scope');
});

const message = (text: string, taskId?: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }], ...(taskId ? { taskId } : {}) });

describe('resubscribe to an input-required task', () => {
  it.each(['0.3', '1.0'] as const)('v%s: the stream stays open through the answer and ends at the completion', async (version) => {
    const ask = agents.builtinAgents().find((a) => a.slug === 'ask')!;
    const scope = scopes.callerScope('ask', 'anonymous');
    const task = onlyTask(await engine.sendMessage({ agent: ask, scope, message: message('greet me'), peer: 'test' }, 'blocking'));
    expect(task.status.state).toBe('input-required');

    const stream = engine.resubscribe(task.id, scope, version);
    const first = await stream.next();
    expect(first.value).toMatchObject([{ kind: 'task', id: task.id, status: { state: 'input-required' } }]);
    const rest = (async () => {
      const events = [];
      for await (const batch of stream) events.push(...batch);
      return events;
    })();
    await engine.sendMessage({ agent: ask, scope, message: message('Ada', task.id), peer: 'test' }, 'blocking');
    const events = await rest;
    const statuses = events.filter((e) => e.kind === 'status-update');
    expect(statuses.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(statuses.slice(0, -1).every((s) => s.kind === 'status-update' && !s.final)).toBe(true);
    expect(events.some((e) => e.kind === 'artifact-update')).toBe(true);
  });
});
