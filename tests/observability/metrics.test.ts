/**
 * GET /api/metrics (Prometheus text) moves as tasks run, detach, end late, fail at
 * the grace and are dispatched outbound, against a real server; and it is protected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { asTask, rpc, sdkClient, sendParams, waitFor } from '../support/a2a-clients';
import { dispatch, waitForTask } from '../support/dispatch-api';

const METRICS_TOKEN = 'metrics-token-0123456789';
const OPERATOR_TOKEN = 'operator-token-0123456789';

let app: AppServer;
let guarded: AppServer;

beforeAll(async () => {
  [app, guarded] = await Promise.all([
    startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_LATE_RESULT_GRACE: '3' }),
    startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR_TOKEN, SWITCHBOARD_METRICS_TOKEN: METRICS_TOKEN }),
  ]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), guarded?.stop()]);
});

async function scrape(server: AppServer, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${server.url}/api/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of one sample: `name{labels}` with exactly these labels (order-free), or 0. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).sort().join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').split(/,(?=[a-zA-Z_]\w*=")/).filter(Boolean).sort().join(',');
    if (have === want) return Number(m[3]);
  }
  return 0;
}

describe('GET /api/metrics', () => {
  it('counts tasks created and ended by state, direction and agent', async () => {
    const before = await scrape(app);
    const res = await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    expect(res.body.result.status.state).toBe('completed');
    const after = await scrape(app);
    const labels = { direction: 'inbound', agent: 'echo', peer: '' };
    expect(sample(after, 'switchboard_tasks_created_total', labels)).toBe(sample(before, 'switchboard_tasks_created_total', labels) + 1);
    expect(sample(after, 'switchboard_tasks_ended_total', { ...labels, state: 'completed' })).toBe(sample(before, 'switchboard_tasks_ended_total', { ...labels, state: 'completed' }) + 1);
    expect(sample(after, 'switchboard_tasks', { state: 'completed', direction: 'inbound' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'switchboard_write_commit_duration_seconds_count')).toBeGreaterThan(0);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \S+$/m);
  });

  it('counts a detach, a late result, a grace expiry (a failure) and the running turn', async () => {
    const client = await sdkClient(app.url, 'slow', '1.0');
    const late = asTask(await client.sendMessage(sendParams('work 2s chunks 1')));
    const expiring = asTask(await client.sendMessage(sendParams('work 60s chunks 1')));
    const running = await scrape(app);
    expect(sample(running, 'switchboard_running_turns', { agent: 'slow', kind: 'builtin' })).toBeGreaterThanOrEqual(1);
    expect(sample(running, 'switchboard_task_detaches_total', { agent: 'slow', reason: 'response window ended' })).toBeGreaterThanOrEqual(2);
    const text = await waitFor(async () => {
      const t = await scrape(app);
      return sample(t, 'switchboard_grace_expiries_total', { agent: 'slow' }) >= 1 && sample(t, 'switchboard_late_results_total', { agent: 'slow', state: 'completed' }) >= 1 ? t : null;
    }, 30_000, 250);
    expect(sample(text, 'switchboard_tasks_ended_total', { direction: 'inbound', agent: 'slow', peer: '', state: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(late.id).not.toBe(expiring.id);
  });

  it('times outbound calls per peer and counts outbound ends', async () => {
    const taskId = await dispatch(app.url, { url: `${app.url}/a2a/slow`, text: 'work 2s chunks 2', mode: 'blocking' });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.state).toBe('completed');
    const text = await scrape(app);
    expect(sample(text, 'switchboard_tasks_ended_total', { direction: 'outbound', agent: '', peer: '(url)', state: 'completed' })).toBeGreaterThanOrEqual(1);
    const calls = text.split('\n').filter((l) => l.startsWith('switchboard_outbound_request_duration_seconds_count{') && l.includes('peer="(url)"'));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.reduce((n, l) => n + Number(l.split(' ').pop()), 0)).toBeGreaterThanOrEqual(1);
  });

  it('is refused without credentials when the API is protected; the metrics token or a viewer role gets it', async () => {
    expect((await fetch(`${guarded.url}/api/metrics`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/api/metrics`, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect(await scrape(guarded, { Authorization: `Bearer ${METRICS_TOKEN}` })).toContain('switchboard_tasks_created_total');
    expect(await scrape(guarded, { Authorization: `Bearer ${OPERATOR_TOKEN}` })).toContain('switchboard_tasks_created_total');
    // The metrics token reaches nothing else.
    expect((await fetch(`${guarded.url}/api/tasks`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(401);
  });
});
