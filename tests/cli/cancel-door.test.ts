/**
 * The reason of a cancel names its door. The CLI
 * labels its calls (X-Switchboard-Client: cli), the dashboard its own; a plain API call is the
 * API; the peer side of a cancelled dispatch (here our own `slow` agent) was cancelled by its
 * A2A caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { runCli } from '../support/cli';
import { waitFor } from '../support/a2a-clients';
import type { TaskView } from '../support/dispatch-api';

const OPERATOR = 'door-operator-token-0123456789';
let app: AppServer;
const auth = { Authorization: `Bearer ${OPERATOR}` };

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR });
});
afterAll(async () => app?.stop());

async function readTask(taskId: string): Promise<TaskView> {
  return (await (await fetch(`${app.url}/api/tasks/${taskId}`, { headers: auth })).json()) as TaskView;
}

/** A background dispatch to our own slow agent, once the peer named its task. */
async function runningDispatch(parentTaskId?: string): Promise<TaskView> {
  const body = { url: `${app.url}/a2a/slow`, text: 'work 60s', mode: 'background', ...(parentTaskId ? { parentTaskId } : {}) };
  const res = await fetch(`${app.url}/api/dispatch`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const { taskId } = (await res.json()) as { taskId: string };
  return waitFor(async () => {
    const view = await readTask(taskId);
    return view.task.remoteTaskId ? view : null;
  });
}

async function cancelOverApi(taskId: string, headers: Record<string, string> = {}, query = ''): Promise<Response> {
  const res = await fetch(`${app.url}/api/tasks/${taskId}/cancel${query}`, { method: 'POST', headers: { ...auth, ...headers } });
  return res;
}

describe('the cancel reason names its door', () => {
  it('the CLI', async () => {
    const view = await runningDispatch();
    const run = await runCli(['tasks', 'cancel', view.task.id, '--json'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: OPERATOR });
    expect(run.code).toBe(0);
    expect((await readTask(view.task.id)).task.endReason).toMatch(/from the CLI/);
  });

  it('the API, and the peer-side task names its A2A caller', async () => {
    const view = await runningDispatch();
    expect((await cancelOverApi(view.task.id)).status).toBe(200);
    expect((await readTask(view.task.id)).task.endReason).toMatch(/through the API/);
    const peerSide = await waitFor(async () => {
      const inbound = await readTask(view.task.remoteTaskId!);
      return inbound.task.endReason ? inbound : null;
    });
    expect(peerSide.task.endReason).toBe('canceled by the A2A caller (tasks/cancel)');
  });

  it('the dashboard', async () => {
    const view = await runningDispatch();
    expect((await cancelOverApi(view.task.id, { 'X-Switchboard-Client': 'dashboard' })).status).toBe(200);
    expect((await readTask(view.task.id)).task.endReason).toMatch(/from the dashboard/);
  });

  it('a child cancelled with its parent from the dashboard names the parent; a wrong parent is refused', async () => {
    const parent = await runningDispatch();
    const child = await runningDispatch(parent.task.id);
    const wrong = await cancelOverApi(child.task.id, { 'X-Switchboard-Client': 'dashboard' }, `?parent=${child.task.id}`);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { field: string } }).error.field).toBe('parent');
    expect((await cancelOverApi(child.task.id, { 'X-Switchboard-Client': 'dashboard' }, `?parent=${parent.task.id}`)).status).toBe(200);
    expect((await readTask(child.task.id)).task.endReason).toMatch(new RegExp(`with its parent task ${parent.task.id} \\(from the dashboard\\)`));
    expect((await cancelOverApi(parent.task.id, { 'X-Switchboard-Client': 'dashboard' })).status).toBe(200);
  });
});
