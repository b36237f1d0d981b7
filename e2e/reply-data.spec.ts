/**
 * An answer that is not text, from the dashboard. A task dispatched to our `ask`
 * agent waits for input; Reply opens the dispatch form on it, the Data field sends a JSON object
 * as a data part, and the agent's answer shows it got the data. A Data field that is not a JSON
 * object is refused in the form, naming the field.
 */
import { expect, logIn, OPERATOR_TOKEN, test } from './fixtures';

test('reply to a task waiting for input with a data part', async ({ page, baseURL }) => {
  await logIn(page, OPERATOR_TOKEN);
  await page.goto('/dispatch');
  await page.getByText('URL', { exact: true }).click();
  await page.getByLabel('Agent URL').fill(`${baseURL}/a2a/ask`);
  await page.getByLabel('Message', { exact: true }).fill('may I run ls?');
  await page.getByTestId('dispatch-submit').click();
  await page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'input-required', { timeout: 30_000 });

  await page.getByTestId('reply').click();
  await page.waitForURL(/\/dispatch\?/);
  await page.getByLabel(/^Data/).fill('[1, 2]');
  await page.getByTestId('dispatch-submit').click();
  await expect(page.locator('#data-error')).toContainText('data: enter a JSON object');

  await page.getByLabel(/^Data/).fill('{"callId": "c1", "outcome": "proceed_once"}');
  await page.getByTestId('dispatch-submit').click();
  await page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect(page.getByTestId('artifact-content-text').first()).toContainText('Hello, {"callId":"c1","outcome":"proceed_once"}!');
});
