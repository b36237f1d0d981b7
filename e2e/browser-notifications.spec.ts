/**
 * Opt-in browser notifications in Chromium with the permission granted. An init
 * script wraps window.Notification to record every notification the page constructs. A task the
 * operator dispatched from the form, and one marked "watch", are each announced once when they
 * end or ask for input, while the dashboard tab is in the background behind another tab.
 * (The recording is kept in sessionStorage: it survives the tab's navigations.)
 */
import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startApp, type AppServer } from '../tests/support/app-server';
import { expect, test } from './fixtures';

/** A Switchboard of its own (open mode, W = 1 s), so these tasks stay out of the shared one's list. */
let own: AppServer;
test.beforeAll(async () => {
  own = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1' });
});
test.afterAll(async () => {
  await own?.kill();
});

/** A non-blocking message/send to one of its agents, as a peer would. */
async function send(agent: string, text: string): Promise<string> {
  const res = await fetch(`${own.url}/a2a/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] }, configuration: { blocking: false } } }),
  });
  return ((await res.json()) as { result: { id: string } }).result.id;
}

interface Shown {
  title: string;
  body: string;
  tag: string;
}

/** Records in sessionStorage, so a notification shown just before a navigation is still seen. */
async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Real = window.Notification;
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        const shown = JSON.parse(sessionStorage.getItem('e2e-notifications') ?? '[]') as unknown[];
        shown.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
        sessionStorage.setItem('e2e-notifications', JSON.stringify(shown));
        super(title, options);
      }
    }
    window.Notification = Recording as typeof Notification;
  });
}

const shown = (page: Page): Promise<Shown[]> => page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-notifications') ?? '[]'));

test('dispatched and watched tasks are announced when they end or need input, also in a background tab', async ({ page, context }) => {
  const baseURL = own.url;
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await recordNotifications(page);
  await page.goto(`${baseURL}/`);
  await page.getByTestId('notifications-toggle').click();
  await expect(page.getByTestId('notifications-toggle')).toHaveText('Notifications on');

  // 1. Dispatched from the form: announced when it ends.
  await page.goto(`${baseURL}/dispatch`);
  await page.getByText('URL', { exact: true }).click();
  await page.getByLabel('Agent URL').fill(`${baseURL}/a2a/slow`);
  await page.getByLabel('Message', { exact: true }).fill('work 3s chunks 3');
  await page.getByTestId('dispatch-submit').click();
  await page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
  const dispatchedId = page.url().split('/').pop()!;
  await page.goto(`${baseURL}/`);
  // Another tab in front: the dashboard tab is in the background. (Not a dashboard page itself,
  // whose own notifier could win the announcement: one tab shows it.)
  const other = await context.newPage();
  await other.goto(`${baseURL}/api/health`);
  await other.bringToFront();
  await expect.poll(async () => (await shown(page)).filter((n) => n.tag === `${dispatchedId}:completed`), { timeout: 30_000 }).toHaveLength(1);
  expect((await shown(page)).find((n) => n.tag === `${dispatchedId}:completed`)!.title).toBe('Task completed');

  // 2. An inbound task marked "watch" on its page: announced when it asks for input.
  await page.bringToFront();
  const watchedId = await send('slow', 'work 6s');
  await page.goto(`${baseURL}/tasks/${watchedId}`);
  await page.getByTestId('watch-task').click();
  await expect(page.getByTestId('watch-task')).toHaveText('Watching');
  await page.goto(`${baseURL}/`);
  await other.bringToFront();
  await expect.poll(async () => (await shown(page)).map((n) => n.tag), { timeout: 30_000 }).toContain(`${watchedId}:completed`);

  // 3. Already asking for input when watched: announced at once (the catch-up read), once per state.
  await page.bringToFront();
  const askId = await send('ask', 'hello');
  await page.goto(`${baseURL}/tasks/${askId}`);
  await page.getByTestId('watch-task').click();
  await expect.poll(async () => (await shown(page)).filter((n) => n.tag === `${askId}:input-required`), { timeout: 30_000 }).toHaveLength(1);
  expect((await shown(page)).find((n) => n.tag === `${askId}:input-required`)!.title).toBe('Task needs input');
  // A task nobody watches is not announced; nothing already announced is announced again.
  const unwatched = await send('echo', 'not watched');
  await page.goto(`${baseURL}/`);
  await expect(page.getByTestId('feed-status')).toHaveAttribute('data-status', 'live');
  await expect(page.locator(`[data-task-id="${unwatched}"]`)).toHaveAttribute('data-state', 'completed');
  expect((await shown(page)).some((n) => n.tag.startsWith(unwatched))).toBe(false);
  expect((await shown(page)).filter((n) => n.tag === `${dispatchedId}:completed`)).toHaveLength(1);
  expect((await shown(page)).filter((n) => n.tag === `${askId}:input-required`)).toHaveLength(1);
});
