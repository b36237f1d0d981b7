/**
 * A client timeout below the peer's keepalive: a timeout below the 10 s floor is
 * accepted and warned about, by the dispatch API, `switchboard dispatch` and the peer config.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/a2a-clients';
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

  it('a peer in the config file with a timeout below the floor is synced, with a warning in the log', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-floor-'));
    const file = path.join(dir, 'switchboard.json');
    fs.writeFileSync(file, JSON.stringify({ peers: [{ name: 'hasty', url: 'http://127.0.0.1:9/a2a/echo', timeoutSeconds: 2 }] }));
    const configured = await startApp({ SWITCHBOARD_CONFIG: file });
    try {
      const peers = (await (await fetch(`${configured.url}/api/peers`)).json()) as { peers: { name: string }[] };
      expect(peers.peers.map((p) => p.name)).toContain('hasty');
      await waitFor(async () => configured.logs().includes('config peer timeout below the floor'));
      expect(configured.logs()).toMatch(/the peer's timeout 2 s is below the 10 s floor/);
    } finally {
      await configured.stop();
    }
  });
});
