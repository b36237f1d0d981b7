/**
 * Peers: add, test (card, version, skills, reachability), edit, delete. Secrets are
 * write-only: accepted by the form, never sent back by the API or shown.
 */
import { expect, logIn, OPERATOR_TOKEN, screenshot, test } from './fixtures';

const SECRET = 'peer-secret-never-shown-42';

test('an operator manages a peer and tests it; its secret never comes back', async ({ page, baseURL }) => {
  await logIn(page, OPERATOR_TOKEN);
  await page.getByRole('link', { name: 'Peers' }).click();
  await expect(page.locator('[data-peer="self"]')).toBeVisible(); // the built-in peer, read-only

  await page.getByRole('button', { name: 'Add peer' }).click();
  await page.getByLabel('Name').fill('loop-echo');
  await page.getByLabel('URL', { exact: true }).fill(`${baseURL}/a2a/echo`);
  await page.getByLabel('Auth').selectOption('bearer');
  await page.getByLabel('Token').fill(SECRET);
  await page.getByRole('button', { name: 'Add peer' }).click();

  const card = page.locator('[data-peer="loop-echo"]');
  await expect(card).toContainText('bearer token · secret set');
  await expect(page.locator('body')).not.toContainText(SECRET);
  const listed = await page.request.get('/api/peers');
  expect(await listed.text()).not.toContain(SECRET);

  await card.getByTestId('peer-test').click();
  const result = card.getByTestId('peer-test-result');
  await expect(result).toContainText('reachable');
  await expect(result).toContainText(/A2A (0\.3|1\.0)/);
  await screenshot(page, 'peers');

  // Edit without retyping the secret keeps it; the form never shows it.
  await card.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Token')).toHaveValue('');
  await page.getByLabel('Timeout (s)').fill('42');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(card).toContainText('42 s');
  await expect(card).toContainText('secret set');

  // A validation error from the API lands at its field.
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('URL', { exact: true }).fill('ftp://nope');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('peer-url-error')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await card.getByRole('button', { name: 'Delete' }).click();
  await card.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(card).toHaveCount(0);
});
