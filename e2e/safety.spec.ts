/**
 * Agent output is text, never HTML, and the dispatch form shows the API's
 * validation errors at the field they concern. "Dispatch again" pre-fills the form, and sends
 * a task that went to a gRPC-only peer by URL to the endpoint it recorded.
 */
import { expect, logIn, OPERATOR_TOKEN, test } from './fixtures';
import { startSdkPeer } from '../tests/support/sdk-peer';
import { postJson } from '../tests/support/dispatch-api';

test('an artifact containing <script> is shown as text and never runs', async ({ page, a2a }) => {
  const payload = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"><b>bold?</b>';
  const id = await a2a.send('echo', payload);
  await logIn(page, OPERATOR_TOKEN);
  await page.goto(`/tasks/${id}`);
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'completed');
  const artifact = page.getByTestId('artifact-content-text').first();
  await expect(artifact).toHaveText(payload);
  await expect(page.getByTestId('artifact').locator('img, script, b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test('dispatch validation errors appear at the field', async ({ page, baseURL }) => {
  await logIn(page, OPERATOR_TOKEN);
  await page.goto('/dispatch');
  await page.getByText('URL', { exact: true }).click();
  await page.getByLabel('Agent URL').fill('not a url');
  await page.getByLabel('Message', { exact: true }).fill('hello');
  await page.getByTestId('dispatch-submit').click();
  await expect(page.getByTestId('url-error')).toContainText('URL');
  await expect(page.getByLabel('Agent URL')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Agent URL').fill(`${baseURL}/a2a/echo`);
  await page.getByLabel('Timeout override (s)').fill('-5');
  await page.getByTestId('dispatch-submit').click();
  await expect(page.getByTestId('timeoutSeconds-error')).toContainText('positive');

  await page.getByLabel('Timeout override (s)').fill('');
  await page.getByLabel('Message', { exact: true }).fill('');
  await page.getByTestId('dispatch-submit').click();
  await expect(page.getByTestId('text-error')).toBeVisible();
});

test('dispatch again pre-fills the form from a task', async ({ page, a2a }) => {
  const id = await a2a.send('echo', 'say it twice');
  await logIn(page, OPERATOR_TOKEN);
  await page.goto(`/tasks/${id}`);
  await page.getByTestId('dispatch-again').click();
  await expect(page).toHaveURL(/\/dispatch\?/);
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('say it twice');
  await expect(page.getByLabel('Agent URL')).toHaveValue(/\/a2a\/echo$/);
});

test('dispatch again sends a task that reached a gRPC-only peer by URL to its recorded endpoint', async ({ page, baseURL }) => {
  const peer = await startSdkPeer({ grpcOnly: true });
  try {
    const first = await postJson(`${baseURL}/api/dispatch`, { url: peer.url, text: 'chunks 2 every 50ms' }, { Authorization: `Bearer ${OPERATOR_TOKEN}` });
    expect(first.status).toBe(202);
    await logIn(page, OPERATOR_TOKEN);
    await page.goto(`/tasks/${String(first.body.taskId)}`);
    await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'completed');
    await page.getByTestId('dispatch-again').click();
    await expect(page.getByLabel('Agent URL')).toHaveValue(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('chunks 2 every 50ms');
    await page.getByTestId('dispatch-submit').click();
    await expect(page).toHaveURL(new RegExp(`/tasks/(?!${String(first.body.taskId)})[^/?]+$`));
    await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'completed');
  } finally {
    await peer.close();
  }
});
