/**
 * AgentTurn.conversation against a real database: the context's earlier messages
 * of this agent's tasks, oldest first, with those tasks' artifacts; the current message left
 * out; other agents' tasks left out; the bounds keep the newest items and flag the rest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore, onlyTask } from '../support/in-process';
import type { Conversation, ServedAgent } from '../../lib/agent-runner';

type Engine = typeof import('../../lib/engine/inbound/operations');
let engine: Engine;
let scopeOf: (agent: string) => import('../../lib/db/task-scope').CallerScope;

beforeAll(async () => {
  await freshStore({ SWITCHBOARD_RESPONSE_WINDOW: '5' });
  engine = await import('../../lib/engine/inbound/operations');
  const { callerScope } = await import('../../lib/db/task-scope');
  scopeOf = (agent) => callerScope(agent, 'anonymous');
});

const message = (text: string, contextId: string, taskId?: string) => ({
  kind: 'message' as const,
  messageId: crypto.randomUUID(),
  role: 'user' as const,
  parts: [{ kind: 'text' as const, text }],
  contextId,
  ...(taskId ? { taskId } : {}),
});

const seen: Array<{ text: string; full: Conversation; two: Conversation; small: Conversation; turn: number }> = [];

function agent(slug: string): ServedAgent {
  return {
    slug,
    name: slug,
    description: '',
    skills: [],
    runner: {
      async runTurn(turn) {
        const text = turn.message.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
        seen.push({
          text,
          turn: turn.turnNumber,
          full: await turn.conversation({ maxItems: 100, maxBytes: 1_000_000 }),
          two: await turn.conversation({ maxItems: 2, maxBytes: 1_000_000 }),
          small: await turn.conversation({ maxItems: 100, maxBytes: 200 }),
        });
        if (text === 'ask') return { state: 'input-required', parts: [{ kind: 'text', text: 'which?' }] };
        await turn.emit.artifact({ artifact: { artifactId: `art-${text}`, parts: [{ kind: 'text', text: `notes ${text}` }] } });
        return { state: 'completed', parts: [{ kind: 'text', text: `re ${text}` }] };
      },
    },
  };
}

const said = (c: Conversation) => c.messages.map((m) => `${m.role}:${m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')}`);

describe('a turn\'s conversation', () => {
  it('holds the context\'s earlier messages and artifacts, bounded newest-first', async () => {
    const coder = agent('coder');
    const contextId = crypto.randomUUID();
    const first = onlyTask(await engine.sendMessage({ agent: coder, scope: scopeOf(coder.slug), message: message('one', contextId), peer: 'p' }, 'blocking'));
    await engine.sendMessage({ agent: agent('other'), scope: scopeOf('other'), message: message('not mine', contextId), peer: 'p' }, 'blocking');
    const asked = onlyTask(await engine.sendMessage({ agent: coder, scope: scopeOf(coder.slug), message: message('ask', contextId), peer: 'p' }, 'blocking'));
    expect(asked.status.state).toBe('input-required');
    await engine.sendMessage({ agent: coder, scope: scopeOf(coder.slug), message: message('two', contextId, asked.id), peer: 'p' }, 'blocking');

    const last = seen.at(-1)!;
    expect(last).toMatchObject({ text: 'two', turn: 2 });
    expect(said(last.full)).toEqual(['user:one', 'agent:re one', 'user:ask', 'agent:which?']);
    expect(last.full.artifacts).toEqual([{ artifactId: 'art-one', parts: [{ kind: 'text', text: 'notes one' }], taskId: first.id }]);
    expect(last.full.truncated).toBe(false);
    expect(said(last.two)).toEqual(['user:ask', 'agent:which?']);
    expect(last.two).toMatchObject({ artifacts: [], truncated: true });
    expect(last.small.truncated).toBe(true);
    expect(JSON.stringify([...last.small.messages, ...last.small.artifacts]).length).toBeLessThanOrEqual(200);
    expect(seen.find((s) => s.text === 'one')!.full).toEqual({ messages: [], artifacts: [], truncated: false });
  });
});
