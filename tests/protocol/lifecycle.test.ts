/**
 * Nothing stays WORKING forever. Grace expiry, shutdown drain, and crash recovery all
 * end tasks FAILED with their reason, through the terminal claim, with history intact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';

let app: AppServer | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const send = (text: string, blocking = true) => ({
  message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
  configuration: { blocking },
});

async function events(url: string, id: string) {
  const res = await rpc(url, 'tasks/get', { id });
  return res.body.result;
}

describe('late-result grace', () => {
  it('a detached task still running when the grace runs out ends FAILED with that reason', async () => {
    app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '0.5', SWITCHBOARD_LATE_RESULT_GRACE: '1' });
    const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', send('work 10s'));
    expect(sent.body.result.status.state).toBe('working');
    const ended = await waitFor(async () => {
      const t = await events(`${app!.url}/a2a/slow`, sent.body.result.id);
      return t.status.state !== 'working' ? t : null;
    });
    expect(ended.status.state).toBe('failed');
    expect(ended.metadata.switchboard.endReason).toBe('late-result grace exceeded');
  });
});

describe('shutdown', () => {
  it('on SIGTERM, running tasks get the drain time, then end FAILED "interrupted: shutdown"', async () => {
    app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '0.3', SWITCHBOARD_DRAIN: '2' });
    const quick = await rpc(`${app.url}/a2a/slow`, 'message/send', send('work 0.5s chunks 2', false));
    const long = await rpc(`${app.url}/a2a/slow`, 'message/send', send('work 30s', false));
    await app.stop();
    await app.restart();
    const finished = await events(`${app.url}/a2a/slow`, quick.body.result.id);
    const cut = await events(`${app.url}/a2a/slow`, long.body.result.id);
    expect(finished.status.state).toBe('completed');
    expect(cut.status.state).toBe('failed');
    expect(cut.metadata.switchboard.endReason).toBe('interrupted: shutdown');
  });
});

describe('shutdown answers open calls', () => {
  it('a blocking caller waiting when SIGTERM arrives gets the task WORKING with instructions, not a dropped connection', async () => {
    app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '60', SWITCHBOARD_DRAIN: '0.5' });
    const pending = rpc(`${app.url}/a2a/slow`, 'message/send', send('work 30s'));
    // SIGTERM only once the call is in (its task is working), not at a guessed moment.
    await waitFor(async () => {
      const list = await (await fetch(`${app!.url}/api/tasks?state=working`)).json();
      return list.tasks?.length > 0;
    });
    const stopping = app.stop();
    const answer = await pending;
    await stopping;
    expect(answer.body.result.status.state).toBe('working');
    expect(answer.body.result.metadata.switchboard).toMatchObject({ detached: true });
    expect(answer.body.result.status.message.parts[0].text).toContain('shutdown');
    await app.restart();
    const after = await events(`${app.url}/a2a/slow`, answer.body.result.id);
    expect(after.status.state).toBe('failed');
    expect(after.metadata.switchboard.endReason).toBe('interrupted: shutdown');
  });
});

describe('crash recovery', () => {
  it('kill -9 during a running task, then start: FAILED "interrupted: restart", history intact', async () => {
    app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '0.5' });
    const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', send('work 30s chunks 30'));
    const id = sent.body.result.id;
    await waitFor(async () => (await events(`${app!.url}/a2a/slow`, id)).artifacts.length > 0);
    await app.kill();
    await app.restart();
    const task = await events(`${app.url}/a2a/slow`, id);
    expect(task.status.state).toBe('failed');
    expect(task.metadata.switchboard.endReason).toBe('interrupted: restart');
    expect(task.history[0].parts[0].text).toBe('work 30s chunks 30');
    expect(task.artifacts[0].parts.length).toBeGreaterThan(0);
    const resub = await fetch(`${app.url}/a2a/slow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/resubscribe', params: { id } }) });
    expect(await resub.text()).toContain('interrupted: restart');
  });

  it('an input-required task survives a restart and can still be answered', async () => {
    app = await startApp();
    const first = await rpc(`${app.url}/a2a/ask`, 'message/send', send('hello'));
    expect(first.body.result.status.state).toBe('input-required');
    await app.kill();
    await app.restart();
    const reply = await rpc(`${app.url}/a2a/ask`, 'message/send', {
      message: { messageId: 'r', role: 'user', taskId: first.body.result.id, parts: [{ kind: 'text', text: 'Grace' }] },
    });
    expect(reply.body.result.status.state).toBe('completed');
  });
});
