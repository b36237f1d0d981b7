/**
 * Every input is bounded. Output limits (the built-in agents' own and the
 * server-wide per-task cap), answers that stay bounded, /api body limits, slow clients, and
 * bad input that used to reach -32603 or HTTP 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';
import { rawRequest, stalledSocket } from '../support/raw-http';

const OUTPUT_CAP = 20_000;
let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_MAX_TASK_OUTPUT_BYTES: String(OUTPUT_CAP), SWITCHBOARD_HEADERS_TIMEOUT: '1' });
});
afterAll(async () => app?.stop());

const message = (text: string) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } });

function postRaw(path: string, body: string) {
  return fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

describe('output limits', () => {
  it('a task whose artifacts pass SWITCHBOARD_MAX_TASK_OUTPUT_BYTES ends FAILED "output limit exceeded", never completed', async () => {
    const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', message('work 0s chunks 10 size 4096'));
    const task = sent.body.result;
    expect(task.status.state).toBe('failed');
    expect(task.metadata.switchboard.endReason).toBe('output limit exceeded');
    const got = await rpc(`${app.url}/a2a/slow`, 'tasks/get', { id: task.id });
    const stored = JSON.stringify(got.body.result.artifacts).length;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThanOrEqual(OUTPUT_CAP);
  });

  it('the built-in agents refuse knobs that ask for more than they may produce', async () => {
    const huge = await rpc(`${app.url}/a2a/slow`, 'message/send', message('work 60s chunks 100000 size 65536'));
    expect(huge.body.result.status.state).toBe('rejected');
    expect(huge.body.result.metadata.switchboard.endReason).toMatch(/^output limit: chunks/);
    const steps = await rpc(`${app.url}/a2a/budget`, 'message/send', message('steps 99999999 budget 99999999'));
    expect(steps.body.result.status.state).toBe('rejected');
  });

  it('a ListTasks page carries at most one task-limit of artifacts; the rest say where to get them', async () => {
    const contextId = crypto.randomUUID();
    for (let i = 0; i < 3; i++) {
      const m = message('x'.repeat(8_000));
      await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { ...m.message, contextId } });
    }
    const page = await rpc(`${app.url}/a2a/echo`, 'ListTasks', { contextId, includeArtifacts: true });
    const tasks = page.body.result.tasks as { artifacts?: unknown[]; metadata: { switchboard: { artifactsOmitted?: string } } }[];
    expect(tasks).toHaveLength(3);
    expect(JSON.stringify(tasks.map((t) => t.artifacts ?? [])).length).toBeLessThanOrEqual(OUTPUT_CAP);
    expect(tasks.filter((t) => t.metadata.switchboard.artifactsOmitted)).toHaveLength(1);
  });
});

describe('bad input gets a precise client error', () => {
  it('method names that are Object.prototype keys are unknown methods (-32601)', async () => {
    for (const method of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
      const res = await rpc(`${app.url}/a2a`, method, {});
      expect(res.body.error.code, method).toBe(-32601);
    }
  });

  it('JSON nested thousands of levels deep is an invalid request (-32600), not an internal error', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const res = await postRaw('/a2a/echo', deep);
    expect(res.status).toBe(200);
    expect((await res.json()).error.code).toBe(-32600);
    const deepArray = await postRaw('/a2a/echo', '['.repeat(100_000));
    expect((await deepArray.json()).error.code).toBe(-32600);
  });

  it('a malformed ListTasks page token is -32602 naming pageToken', async () => {
    for (const pageToken of [Buffer.from('{"createdAt":"garbage","id":"x"}').toString('base64url'), 'not-a-token', Buffer.from('[1]').toString('base64url')]) {
      const res = await rpc(`${app.url}/a2a/echo`, 'ListTasks', { pageToken });
      expect(res.body.error.code, pageToken).toBe(-32602);
      expect(res.body.error.message).toMatch(/pageToken/);
    }
  });
});

describe('/api bodies', () => {
  it('refuses a body over the limit with 413 without reading it all, for a declared and a chunked body', async () => {
    const big = JSON.stringify({ name: 'x', url: 'http://127.0.0.1:1/', pad: 'x'.repeat(2 * 1024 * 1024) });
    const declared = await rawRequest(`${app.url}/api/peers`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(big.length) }, body: big });
    expect(declared.status).toBe(413);
    expect(declared.json().error).toMatchObject({ code: 'body_too_large' });
    const chunked = await rawRequest(`${app.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
  });

  it('answers bad JSON on /api with a JSON 400, not an HTML page', async () => {
    const res = await postRaw('/api/dispatch', '{"peer":');
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_json');
  });
});

describe('slow clients', () => {
  it('closes connections that never finish (or never start) their headers, but not long answers', async () => {
    const longAnswer = rpc(`${app.url}/a2a/slow`, 'message/send', message('work 2500ms chunks 1'));
    const silent = stalledSocket(app.port, '');
    const partial = stalledSocket(app.port, 'POST /a2a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await Promise.all([silent.closed, partial.closed]); // the test times out if either stays open
    expect((await longAnswer).body.result.status.state).toBe('completed');
  });
});
