/**
 * A turn may hand its result over with its completion (TurnOutcome.artifacts): the chunks and
 * the terminal status are one write, so there is never a completed task without its result,
 * nor a result recorded for a task that a cancel ended first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore, onlyTask } from '../support/in-process';
import type { ServedAgent } from '../../lib/agent-runner';

type Engine = typeof import('../../lib/engine/inbound/operations');
type Repo = typeof import('../../lib/db/task-repo');
type Cancel = typeof import('../../lib/engine/cancel');
let engine: Engine;
let repo: Repo;
let cancel: Cancel['cancel'];
let scopeOf: (agent: string) => import('../../lib/db/task-scope').CallerScope;

beforeAll(async () => {
  await freshStore({ SWITCHBOARD_RESPONSE_WINDOW: '5' });
  engine = await import('../../lib/engine/inbound/operations');
  repo = await import('../../lib/db/task-repo');
  ({ cancel } = await import('../../lib/engine/cancel'));
  const { callerScope } = await import('../../lib/db/task-scope');
  scopeOf = (agent) => callerScope(agent, 'anonymous');
});

const message = (text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }] });
const chunk = (text: string, append = false) => ({ artifact: { artifactId: 'result', parts: [{ kind: 'text' as const, text }] }, append });

function agent(runTurn: ServedAgent['runner']['runTurn']): ServedAgent {
  return { slug: 'test', name: 'test', description: '', skills: [], runner: { runTurn } };
}

describe('artifacts returned with the outcome', () => {
  it('are recorded in the same transaction as the completion, after any emitted chunks', async () => {
    const runner = agent(async (turn) => {
      await turn.emit.artifact(chunk('streamed '));
      return { state: 'completed', artifacts: [chunk('and final', true)] };
    });
    const task = onlyTask(await engine.sendMessage({ agent: runner, scope: scopeOf(runner.slug), message: message('go'), peer: 'test' }, 'blocking'));
    expect(task.status.state).toBe('completed');
    // Appended text is one part.
    expect(task.artifacts?.[0].parts.map((p) => (p.kind === 'text' ? p.text : ''))).toEqual(['streamed and final']);
    const events = await repo.listEvents(task.id);
    const last = events.slice(-2);
    expect(last.map((e) => [e.type, e.state])).toEqual([
      ['artifact', null],
      ['status', 'completed'],
    ]);
    expect(last[0].at).toBe(last[1].at); // one write
  });

  it('are not recorded when the task already ended (a cancel won the claim)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runner = agent(async () => {
      await gate; // ignores its signal on purpose, so it returns after the cancel
      return { state: 'completed', artifacts: [chunk('too late')] };
    });
    const task = onlyTask(await engine.sendMessage({ agent: runner, scope: scopeOf(runner.slug), message: message('go'), peer: 'test' }, 'non-blocking'));
    await cancel(task.id, scopeOf(runner.slug));
    release();
    await new Promise((r) => setTimeout(r, 100));
    const after = await engine.getTask(task.id, scopeOf(runner.slug));
    expect(after.status.state).toBe('canceled');
    expect(after.artifacts).toEqual([]);
    expect((await repo.listEvents(task.id)).some((e) => e.type === 'artifact')).toBe(false);
  });
});
