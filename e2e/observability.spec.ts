/**
 * The timeline picture (phases as bars, chunk ticks, W and G marks, a child's own
 * phases nested under the parent), the delegation tree, progress, dark mode and the list's keyboard
 * shortcuts, in Chromium. Screenshots (light and dark) go to e2e/screenshots/.
 */
import { randomUUID } from 'node:crypto';
import { expect, logIn, OPERATOR_TOKEN, screenshot, test } from './fixtures';

const auth = { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` };

test('the task page draws phases, chunk ticks, the W mark, the child and progress; dark mode toggles', async ({ page, a2a, app }) => {
  const tag = `p${randomUUID().slice(0, 8)}`;
  const parentId = await a2a.send('slow', `${tag} work 4s chunks 4`);
  const res = await fetch(`${app.url}/api/dispatch`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: `${app.url}/a2a/slow`, text: `${tag} child work 2s chunks 1`, mode: 'background', parentTaskId: parentId }),
  });
  expect(res.status).toBe(202);
  const childId = ((await res.json()) as { taskId: string }).taskId;

  await logIn(page, OPERATOR_TOKEN);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`/tasks/${parentId}`);
  // While it runs: progress from the slow agent's "N% done", the child in the tree.
  await expect(page.getByTestId('progress').first()).toBeVisible();
  await expect(page.getByTestId('child-task')).toHaveCount(1);
  await expect(page.getByTestId('child-task').getByRole('link').first()).toHaveText(childId);

  await expect(page.getByTestId('task-state')).toHaveText('completed', { timeout: 30_000 });
  const picture = page.getByTestId('task-picture');
  await expect(picture).toBeVisible();
  const kinds = await picture.getByTestId('phase-bar').evaluateAll((bars) => bars.map((b) => b.getAttribute('data-kind')));
  expect(kinds).toEqual(['submitted', 'working', 'detached', 'ended']);
  await expect(picture.getByTestId('chunk-tick')).toHaveCount(4);
  await expect(picture.getByTestId('window-mark')).toHaveCount(1);
  // The grace ends long after this early end: still marked, pinned to the edge with its time.
  await expect(picture.getByTestId('grace-mark')).toHaveAttribute('data-in-view', 'false');
  await expect(picture.getByTestId('grace-mark')).toContainText(/G at \d/);
  await expect(picture.getByTestId('child-bar')).toHaveCount(1);
  // The child's own phases, nested under the parent on the same axis.
  await expect(picture.getByTestId('child-bar').getByTestId('child-phase').last()).toHaveAttribute('data-kind', 'ended', { timeout: 30_000 });
  const childKinds = await picture.getByTestId('child-phase').evaluateAll((bars) => bars.map((b) => b.getAttribute('data-kind')));
  expect(childKinds).toEqual(['submitted', 'working', 'detached', 'ended']);
  await expect(page.getByTestId('child-task')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  // The remote hop links to the peer's task page (the peer is a Switchboard: this one).
  await expect(page.getByTestId('remote-hop')).toHaveAttribute('href', /\/tasks\//);
  await expect(page.getByRole('progressbar').first()).toHaveAttribute('aria-valuenow', '100');
  await screenshot(page, 'task-picture-light');

  // Dark mode: follows the system, and the toggle overrides it.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(250, 250, 250)');
  await screenshot(page, 'task-picture-dark');

  // The child's page names its parent.
  await page.goto(`/tasks/${childId}`);
  await expect(page.getByTestId('parent-task').getByRole('link')).toHaveText(parentId);
  await screenshot(page, 'delegation-child-dark');
});

test('list shortcuts: j/k select, Enter opens, c cancels after a confirmation', async ({ page, a2a }) => {
  const tag = `k${randomUUID().slice(0, 8)}`;
  const first = await a2a.send('echo', `${tag} one`);
  const running = await a2a.send('slow', `${tag} work 60s chunks 1`);
  await logIn(page, OPERATOR_TOKEN);
  await page.getByLabel('Search requests, status messages and results').fill(tag);
  await expect(page.getByTestId('task-row')).toHaveCount(2);
  await page.locator('body').click({ position: { x: 5, y: 5 } });

  await page.keyboard.press('j');
  await expect(page.locator(`[data-task-id="${running}"]`)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('j');
  await expect(page.locator(`[data-task-id="${first}"]`)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await expect(page.locator(`[data-task-id="${running}"]`)).toHaveAttribute('aria-selected', 'true');

  page.once('dialog', (dialog) => {
    expect(dialog.message()).toContain(running);
    void dialog.accept();
  });
  await page.keyboard.press('c');
  await expect(page.locator(`[data-task-id="${running}"]`)).toHaveAttribute('data-state', 'canceled', { timeout: 20_000 });

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/tasks/${running}$`));
});
