/**
 * Checks the relay tests share across peers (tests/protocol/relay*.test.ts): the same guarantee,
 * whichever peer version is behind the relay agent.
 */
import { expect } from 'vitest';
import { asTask, partsText, sendParams, TaskState, waitFor, type SdkClient } from './a2a-clients';

/** The task once it is completed or failed, read through `client` (polled, at most `timeoutMs`). */
export function taskEnded(client: SdkClient, id: string, timeoutMs: number) {
  return waitFor(async () => {
    const task = await client.getTask({ tenant: '', id, historyLength: 0 });
    return [TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED].includes(task.status!.state) && task;
  }, timeoutMs);
}

/** What the test reads of the inbound task: its outbound children. */
export type ChildrenOf = (taskId: string) => Promise<{ children: { state: string }[] }>;

/**
 * The peer asks for input ("ask"); the caller sees input-required with the peer's question, and
 * its answer continues the SAME peer task, which the peer greets (it greets only an answer within
 * the task that asked).
 */
export async function expectInputRoundTrip(client: SdkClient, childrenOf: ChildrenOf): Promise<void> {
  const asked = asTask(await client.sendMessage(sendParams('ask')));
  expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  expect(partsText(asked.status?.message?.parts)).toBe('What is your name?');
  const answered = asTask(await client.sendMessage(sendParams('chunks 1 every 10ms', { taskId: asked.id, contextId: asked.contextId })));
  expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(partsText(answered.status?.message?.parts)).toBe('hello, chunks 1 every 10ms');
  const view = await childrenOf(asked.id);
  expect(view.children).toHaveLength(1);
  expect(view.children[0].state).toBe('completed');
}
