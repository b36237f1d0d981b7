/**
 * The dashboard at a phone's width and in the system's dark mode, and keyboard reachability of
 * the list's controls. Screenshots go to e2e/screenshots/ for a human look.
 */
import { expect, logIn, OPERATOR_TOKEN, screenshot, test } from './fixtures';

test.use({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });

test('list, task page and dispatch form work on a narrow dark screen', async ({ page, a2a }) => {
  const id = await a2a.send('budget', 'steps 5 budget 2');
  await a2a.send('echo', 'a narrow-screen echo');
  await logIn(page, OPERATOR_TOKEN);
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling of the page').toBeLessThanOrEqual(0);
  await screenshot(page, 'narrow-dark-list');

  await page.goto(`/tasks/${id}`);
  await expect(page.getByTestId('end-reason')).toContainText('iteration budget exhausted');
  await screenshot(page, 'narrow-dark-task');

  await page.goto('/dispatch');
  await expect(page.getByTestId('dispatch-submit')).toBeVisible();
  await screenshot(page, 'narrow-dark-dispatch');
});

test('the list is usable from the keyboard', async ({ page, a2a }) => {
  await a2a.send('echo', 'keyboard reachable');
  await logIn(page, OPERATOR_TOKEN);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  // Tab through the header to the state chips, and filter with the keyboard.
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.getByTestId('count-completed').evaluate((el) => el === document.activeElement)) break;
  }
  await expect(page.getByTestId('count-completed')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/state=completed/);
  // A task opens from the keyboard too.
  await page.getByTestId('task-row').first().getByRole('link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tasks\//);
});
