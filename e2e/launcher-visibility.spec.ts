/**
 * Issue 14 in the dashboard: config errors shown on the page an operator opens (file, entry,
 * key), and a task whose agent answered with a direct message marked as such.
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../tests/support/app-server';

let app: AppServer;
let configFile: string;

test.beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-launchers-'));
  configFile = path.join(dir, 'switchboard.json');
  const config = {
    agents: [
      { slug: 'frames', name: 'Frame echo', launcher: { type: 'rpc', command: [process.execPath, path.resolve('tests/fixtures/agents/rpc-frame-echo.mjs')] } },
      { slug: 'typo', name: 'Typo', launcher: { type: 'process', command: ['my-agent', '{promt}'] } },
    ],
  };
  fs.writeFileSync(configFile, JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: configFile }); // loopback, no tokens: open dashboard
});
test.afterAll(async () => app?.stop());

test('config errors are listed on the dashboard with file, entry and key', async ({ page }) => {
  await page.goto(`${app.url}/`);
  const line = page.getByTestId('config-error');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(configFile);
  await expect(line).toContainText('agents[1] "typo"');
  await expect(line).toContainText('launcher.command.1: placeholder {promt} is unknown');
});

test('a direct-message reply is marked on its task page', async ({ page }) => {
  const contextId = crypto.randomUUID();
  const res = await fetch(`${app.url}/a2a/frames`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', contextId, parts: [{ kind: 'text', text: 'message hello' }] } } }),
  });
  expect((await res.json()).result.kind).toBe('message');
  const list = await (await fetch(`${app.url}/api/tasks?agent=frames`)).json();
  const id = list.tasks.find((t: { contextId: string }) => t.contextId === contextId).id;
  await page.goto(`${app.url}/tasks/${id}`);
  await expect(page.getByTestId('direct-reply-note')).toContainText('received that Message, not the task');
  await expect(page.getByText('Completed — replied with a direct message')).toBeVisible();
});
