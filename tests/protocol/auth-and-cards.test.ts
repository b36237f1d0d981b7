/**
 * Agent cards (both generations of fields), inbound API keys (hashed, 401 with
 * WWW-Authenticate when any exists), and the refusal to bind a non-loopback address without auth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { startApp, freePort, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { dispatch, waitForTask } from '../support/dispatch-api';

const execFileAsync = promisify(execFile);

let app: AppServer;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.stop());

// Asynchronous: a spawnSync blocked this process for longer than the server keeps an idle
// connection on a loaded machine, and the next request went out on the socket it had closed
// (execFile rejects, with the script's stderr, when it does not exit 0).
async function createKey(name: string): Promise<string> {
  const out = await execFileAsync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', name], { env: { ...process.env, ...app.env }, encoding: 'utf8' });
  return /\b(sb_[A-Za-z0-9_-]+)/.exec(out.stdout)![1];
}

describe('agent cards', () => {
  it('serves the default card at the origin root and the agent.json alias, with both interface generations', async () => {
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const card = await (await fetch(`${app.url}${path}`)).json();
      expect(card.name).toBe('Echo');
      expect(card.protocolVersion).toBe('0.3.0');
      expect(card.url).toBe(`${app.url}/a2a`);
      expect(card.preferredTransport).toBe('JSONRPC');
      expect(card.supportedInterfaces).toEqual([
        { url: `${app.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${app.url}/a2a/echo`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: `${app.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ]);
      expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
      expect(card.skills[0]).toMatchObject({ id: 'echo', tags: expect.any(Array) });
    }
  });

  it('serves a card per agent at /a2a/<slug>/.well-known/agent-card.json with its timing', async () => {
    const card = await (await fetch(`${app.url}/a2a/slow/.well-known/agent-card.json`)).json();
    expect(card.url).toBe(`${app.url}/a2a/slow`);
    expect(card.capabilities.extensions[0].params).toMatchObject({ responseWindowSeconds: 300, lateResultGraceSeconds: 1800 });
  });
});

describe('inbound API keys', () => {
  it('with no key the endpoint is open on loopback; once a key exists, calls need it', async () => {
    const open = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: 'x' });
    expect(open.status).toBe(200);

    const key = await createKey('peer-a');
    // The key cache holds "no keys" for up to 2 s: wait until the server has noticed the key.
    const refused = await waitFor(async () => {
      const res = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: 'x' });
      return res.status === 401 && res;
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: 'x' }, { Authorization: 'Bearer sb_wrong' });
    expect(wrong.status).toBe(401);

    const bearer = await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { messageId: 'k1', role: 'user', parts: [{ kind: 'text', text: 'with key' }] } }, { Authorization: `Bearer ${key}` });
    expect(bearer.body.result.status.state).toBe('completed');
    const header = await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: bearer.body.result.id }, { 'X-API-Key': key });
    expect(header.body.result.id).toBe(bearer.body.result.id);

    // The built-in `self` peer still reaches our own agents without anyone minting it a key.
    const taskId = await dispatch(app.url, { peer: 'self', text: 'to myself', mode: 'blocking' });
    const done = await waitForTask(app.url, taskId);
    expect(done.task.state).toBe('completed');

    const card = await (await fetch(`${app.url}/.well-known/agent-card.json`)).json();
    expect(card.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(card.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
  });
});

describe('binding', () => {
  it('refuses a non-loopback bind without auth, saying what to set', async () => {
    const port = await freePort();
    const out = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '0.0.0.0', '-p', String(port)], {
      env: { ...process.env, DATABASE_URL: `file:${app.dataDir}/exposed.db`, HOST: '0.0.0.0', SWITCHBOARD_DIST_DIR: process.env.SWITCHBOARD_DIST_DIR || '.next' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain('SWITCHBOARD_OPERATOR_TOKEN');
    expect(out.stderr).toContain('npm run keys');
  });

  it('refuses an invalid setting at start, naming it', async () => {
    const port = await freePort();
    const out = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
      env: { ...process.env, DATABASE_URL: `file:${app.dataDir}/bad.db`, SWITCHBOARD_RESPONSE_WINDOW: 'soon', SWITCHBOARD_DIST_DIR: process.env.SWITCHBOARD_DIST_DIR || '.next' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain('SWITCHBOARD_RESPONSE_WINDOW');
  });
});
