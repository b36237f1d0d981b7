/**
 * Issue 22 "a client timeout below the peer's keepalive": a timeout below the 10 s floor is
 * accepted and warned about, by the dispatch API, `switchboard dispatch` and the peer config.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { runCli } from '../support/cli';
import { postJson } from '../support/dispatch-api';

let app: AppServer;
let env: Record<string, string>;

beforeAll(async () => {
  app = await startApp();
  env = { SWITCHBOARD_URL: app.url };
});
afterAll(async () => app?.stop());

describe('a timeout below the floor is warned about, not refused', () => {
  it('the dispatch API answers 202 with a warning; at the floor, none', async () => {
    const low = await postJson(`${app.url}/api/dispatch`, { url: `${app.url}/a2a/echo`, text: 'hi', timeoutSeconds: 3 });
    expect(low.status).toBe(202);
    expect(low.body.warnings).toEqual([expect.stringMatching(/^timeoutSeconds 3 s is below the 10 s floor/)]);
    const fine = await postJson(`${app.url}/api/dispatch`, { url: `${app.url}/a2a/echo`, text: 'hi', timeoutSeconds: 10 });
    expect(fine.status).toBe(202);
    expect(fine.body.warnings).toBeUndefined();
  });

  it('switchboard dispatch --timeout 3 dispatches and prints the warning on stderr', async () => {
    const run = await runCli(['dispatch', `${app.url}/a2a/echo`, 'hi', '--timeout', '3'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\S+$/);
    expect(run.stderr).toMatch(/warning: timeoutSeconds 3 s is below the 10 s floor/);
  });

  it('switchboard peers add --timeout 3 adds the peer and warns; the API answer carries it', async () => {
    const run = await runCli(['peers', 'add', 'quick', `${app.url}/a2a/echo`, '--timeout', '3', '--json'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: the peer's timeout 3 s is below the 10 s floor/);
    expect(JSON.parse(run.stdout).warnings).toHaveLength(1);
    const fine = await postJson(`${app.url}/api/peers`, { name: 'patient', url: `${app.url}/a2a/slow`, timeoutSeconds: 30 });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
    expect(fine.body.warnings).toBeUndefined();
  });
});
