/**
 * What an unauthenticated probe and a viewer may see. /api/health tells a probe only
 * that the server is up and which store it uses (on PostgreSQL, no instance name, leases or last
 * errors); a viewer sees those. /api/status names the config file to a viewer by its name, not
 * its path; an operator sees the path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';

const OPERATOR = 'exposure-operator-token-0123456789';
const VIEWER = 'exposure-viewer-token-0123456789';
let app: AppServer;
let configPath: string;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-exposure-'));
  configPath = path.join(dir, 'private-dir', 'switchboard.json');
  fs.mkdirSync(path.dirname(configPath));
  fs.writeFileSync(configPath, JSON.stringify({ agents: [{ slug: 'Bad Slug', name: 'x', launcher: { type: 'process', command: ['x'] } }] }));
  app = await startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR, SWITCHBOARD_VIEWER_TOKEN: VIEWER, SWITCHBOARD_CONFIG: configPath });
});
afterAll(async () => app?.stop());

const get = async (p: string, token?: string) => {
  const res = await fetch(`${app.url}${p}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('exposure of health and status', () => {
  it('an unauthenticated health probe gets ok and the store only; a viewer gets the instance details', async () => {
    const probe = await get('/api/health');
    expect(probe.status).toBe(200);
    expect(Object.keys(probe.body).sort()).toEqual(['ok', 'store']);
    const viewer = await get('/api/health', VIEWER);
    if (viewer.body.store === 'postgresql') expect(viewer.body).toHaveProperty('instance');
    else expect(viewer.body).toEqual({ ok: true, store: 'sqlite' });
  });

  it('a viewer sees the config file by name, an operator by path', async () => {
    const viewer = await get('/api/status', VIEWER);
    const issues = viewer.body.configErrors as { file: string; text: string; message: string }[];
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0].file).toBe('switchboard.json');
    expect(JSON.stringify(viewer.body)).not.toContain(path.dirname(configPath));
    const operator = await get('/api/status', OPERATOR);
    expect((operator.body.configErrors as { file: string }[])[0].file).toBe(configPath);
  });
});
