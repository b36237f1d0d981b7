/**
 * What a caller sees when the response window ends (here 2 s).
 * - An open stream carries every event committed up to and including the detach status, in seq
 *   order, also those that committed in the same instant as the window's end (the log is the
 *   truth; the stream must equal it).
 * - tasks/get on a detached, still-working task shows later progress as its status message; the
 *   detach facts stay in metadata.switchboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamResponse } from '@a2a-js/sdk';
import { startApp, type AppServer } from '../support/app-server';
import { asTask, collect, partsText, rpc, sdkClient, sendParams, TaskState, waitFor, type SdkVersion } from '../support/a2a-clients';

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '2', SWITCHBOARD_LATE_RESULT_GRACE: '30' });
});
afterAll(async () => app?.stop());

interface LoggedEvent {
  seq: number;
  type: string;
  state: string | null;
  payload: { message?: { parts?: { text?: string }[] }; artifactId?: string; textLength?: number } | null;
}

async function eventLog(taskId: string): Promise<LoggedEvent[]> {
  const res = await fetch(`${app.url}/api/tasks/${taskId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: LoggedEvent[] }).events;
}

/** One comparable line per stream event: its kind and what it says. */
function describeStreamed(e: StreamResponse): string {
  const p = e.payload!;
  if (p.$case === 'artifactUpdate') return `artifact ${p.value.artifact?.artifactId} ${partsText(p.value.artifact?.parts).length}`;
  if (p.$case === 'statusUpdate') return `status ${TaskState[p.value.status!.state]} ${partsText(p.value.status?.message?.parts)}`;
  return p.$case;
}

/** The same line for a logged event, or null for bookkeeping events a stream does not carry. */
function describeLogged(e: LoggedEvent): string | null {
  if (e.type === 'artifact') return `artifact ${e.payload?.artifactId} ${e.payload?.textLength}`;
  if (e.type !== 'status' && e.type !== 'detached') return null;
  const text = (e.payload?.message?.parts ?? []).map((p) => p.text ?? '').join('');
  return `status TASK_STATE_${(e.state ?? 'working').toUpperCase().replace('-', '_')} ${text}`;
}

describe.each<SdkVersion>(['1.0', '0.3'])('the window ends an open stream (v%s)', (version) => {
  it('carries every event committed up to and including the detach status, in seq order', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    // Chunk 1 and "25% done" are emitted at 2 s, the instant the window ends.
    const events = await collect(client.sendMessageStream(sendParams('work 4s chunks 2')));
    const id = asTask(events[0]).id;
    const lines = events.slice(1).map(describeStreamed);

    const log = await eventLog(id);
    const detachedAt = log.findIndex((e) => e.type === 'detached');
    expect(detachedAt).toBeGreaterThan(0);
    const expected = log
      .slice(0, detachedAt + 1)
      .filter((e) => e.seq > 2) // the snapshot (first event) holds the task as of seq 2
      .map(describeLogged)
      .filter((line): line is string => line !== null);
    expect(lines).toEqual(expected);

    // The scenario of the issue: the chunk and the progress of the window's instant arrive.
    const chunks = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [partsText(e.payload.value.artifact?.parts)] : []));
    expect(chunks[0]).toMatch(/^chunk 00001 /);
    expect(lines).toContain('status TASK_STATE_WORKING 25% done');
    const last = events[events.length - 1].payload!;
    expect(last.$case).toBe('statusUpdate');
    expect(partsText(last.$case === 'statusUpdate' ? last.value.status?.message?.parts : [])).toContain('tasks/get');
  });
});

describe('a blocking answer at the window end', () => {
  it('asked for partial artifacts, holds the artifact committed in the same instant as the detach', async () => {
    const client = await sdkClient(app.url, 'slow', '1.0');
    const params = sendParams('work 4s chunks 2');
    const task = asTask(await client.sendMessage({ ...params, message: { ...params.message, metadata: { switchboard: { partialArtifacts: true } } } }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const log = await eventLog(task.id);
    const detachSeq = log.find((e) => e.type === 'detached')!.seq;
    const chunksBefore = log.filter((e) => e.type === 'artifact' && e.seq < detachSeq).length;
    // Appended text is one part: count the chunks in it.
    const text = task.artifacts.flatMap((a) => a.parts).map((p) => partsText([p])).join('');
    expect(text.match(/chunk \d{5}/g) ?? []).toHaveLength(chunksBefore);
  });

  it('by default carries no artifacts, so it cannot pass for the result; tasks/get has them', async () => {
    const client = await sdkClient(app.url, 'slow', '1.0');
    const task = asTask(await client.sendMessage(sendParams('work 4s chunks 8')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(task.artifacts).toEqual([]);
    expect(partsText(task.status?.message?.parts)).toContain('is still working');
    const log = await eventLog(task.id);
    const detachSeq = log.find((e) => e.type === 'detached')!.seq;
    expect(log.some((e) => e.type === 'artifact' && e.seq < detachSeq)).toBe(true);
    const got = await client.getTask({ id: task.id, historyLength: 0, tenant: '' });
    expect(got.artifacts.length).toBeGreaterThan(0);
  });
});

describe('tasks/get on a detached task that keeps working', () => {
  it('shows later progress as the status message and keeps the detach facts in metadata.switchboard', async () => {
    const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', {
      message: { messageId: 'progress-1', role: 'user', parts: [{ kind: 'text', text: 'work 4s chunks 8' }] },
    });
    const task = sent.body.result;
    expect(task.status.state).toBe('working');
    expect(task.status.message.parts[0].text).toContain('tasks/get');

    const later = await waitFor(async () => {
      const got = await rpc(`${app.url}/a2a/slow`, 'tasks/get', { id: task.id });
      const t = got.body.result;
      return t.status.state === 'working' && t.status.message?.parts[0].text === '75% done' ? t : null;
    });
    expect(later.metadata.switchboard).toMatchObject({
      detached: true,
      reason: 'response window ended',
      taskId: task.id,
      responseWindowMs: 2000,
      retrieveWith: { v03: ['tasks/get', 'tasks/resubscribe'], v10: ['GetTask', 'SubscribeToTask'] },
    });

    const v10 = await rpc(`${app.url}/a2a/slow`, 'GetTask', { id: task.id }, { 'A2A-Version': '1.0' });
    expect(v10.body.result.metadata.switchboard.reason).toBe('response window ended');
  });
});
