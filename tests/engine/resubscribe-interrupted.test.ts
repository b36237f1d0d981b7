/**
 * Issue 13 §2: resubscribing to a task that waits for input ends the stream at once, with the
 * task and a final status (v0.3 `final: true`; v1.0 closes at an interrupted state), instead of
 * staying open with no further event until the caller answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { onlyTask, useFreshDatabase } from '../support/in-process';

let engine: typeof import('../../lib/engine/inbound');
let agents: typeof import('../../lib/agents/builtin-agents');
let scopes: typeof import('../../lib/db/task-scope');

beforeAll(async () => {
  useFreshDatabase({ SWITCHBOARD_RESPONSE_WINDOW: '5' });
  engine = await import('../../lib/engine/inbound');
  agents = await import('../../lib/agents/builtin-agents');
  scopes = await import('../../lib/db/task-scope');
});

const message = (text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }] });

describe('resubscribe to an input-required task', () => {
  it.each(['0.3', '1.0'] as const)('v%s: the stream ends with the task and a final input-required status', async (version) => {
    const ask = agents.builtinAgents().find((a) => a.slug === 'ask')!;
    const scope = scopes.callerScope('ask', 'anonymous');
    const task = onlyTask(await engine.sendMessage({ agent: ask, scope, message: message('greet me'), peer: 'test' }, 'blocking'));
    expect(task.status.state).toBe('input-required');

    const events = [];
    for await (const batch of engine.resubscribe(task.id, scope, version)) events.push(...batch);
    expect(events[0]).toMatchObject({ kind: 'task', id: task.id, status: { state: 'input-required' } });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'input-required' } });
  });
});
