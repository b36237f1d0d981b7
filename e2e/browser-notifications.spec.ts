/**
 * Issue 17 §2: opt-in browser notifications in Chromium with the permission granted. An init
 * script wraps window.Notification to record every notification the page constructs. A task the
 * operator dispatched from the form, and one marked "watch", are each announced once when they
 * end or ask for input, while the dashboard tab is in the background behind another tab.
 */
import type { Page } from '@playwright/test';
import { expect, logIn, OPERATOR_TOKEN, test } from './fixtures';

interface Shown {
  title: string;
  body: string;
  tag: string;
}

async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body: string; tag: string }[] = [];
    (window as unknown as { __notifications: typeof shown }).__notifications = shown;
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
        super(title, options);
      }
    }
    window.Notification = Recording as typeof Notification;
  });
}

const shown = (page: Page) => page.evaluate(() => (window as unknown as { __notifications: Shown[] }).__notifications);

test('dispatched and watched tasks are announced when they end or need input, also in a background tab', async ({ page, context, baseURL, a2a }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await recordNotifications(page);
  await logIn(page, OPERATOR_TOKEN);
  await page.getByTestId('notifications-toggle').click();
  await expect(page.getByTestId('notifications-toggle')).toHaveText('Notifications on');

  // 1. Dispatched from the form: announced when it ends.
  await page.goto('/dispatch');
  await page.getByText('URL', { exact: true }).click();
  await page.getByLabel('Agent URL').fill(`${baseURL}/a2a/slow`);
  await page.getByLabel('Message', { exact: true }).fill('work 3s chunks 3');
  await page.getByTestId('dispatch-submit').click();
  await page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
  const dispatchedId = page.url().split('/').pop()!;
  await page.goto('/');
  const other = await context.newPage();
  await other.goto('/peers');
  await other.bringToFront();
  await expect.poll(async () => (await shown(page)).filter((n) => n.tag === `${dispatchedId}:completed`), { timeout: 30_000 }).toHaveLength(1);
  expect((await shown(page)).find((n) => n.tag === `${dispatchedId}:completed`)!.title).toBe('Task completed');

  // 2. An inbound task marked "watch" on its page: announced when it asks for input.
  await page.bringToFront();
  const watchedId = await a2a.send('slow', 'work 6s');
  await page.goto(`/tasks/${watchedId}`);
  await page.getByTestId('watch-task').click();
  await expect(page.getByTestId('watch-task')).toHaveText('Watching');
  await page.goto('/');
  await other.bringToFront();
  await expect.poll(async () => (await shown(page)).map((n) => n.tag), { timeout: 30_000 }).toContain(`${watchedId}:completed`);

  // 3. Already asking for input when watched: announced at once (the catch-up read), once per state.
  await page.bringToFront();
  const askId = await a2a.send('ask', 'hello');
  await page.goto(`/tasks/${askId}`);
  await page.getByTestId('watch-task').click();
  await expect.poll(async () => (await shown(page)).filter((n) => n.tag === `${askId}:input-required`), { timeout: 30_000 }).toHaveLength(1);
  expect((await shown(page)).find((n) => n.tag === `${askId}:input-required`)!.title).toBe('Task needs input');
  // A task nobody watches is not announced; nothing already announced is announced again.
  const unwatched = await a2a.send('echo', 'not watched');
  await page.goto('/');
  await expect(page.getByTestId('feed-status')).toHaveAttribute('data-status', 'live');
  await expect(page.locator(`[data-task-id="${unwatched}"]`)).toHaveAttribute('data-state', 'completed');
  expect((await shown(page)).some((n) => n.tag.startsWith(unwatched))).toBe(false);
  expect((await shown(page)).filter((n) => n.tag === `${dispatchedId}:completed`)).toHaveLength(0);
});
