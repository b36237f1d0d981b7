/**
 * Access: token login into an httpOnly session cookie, the viewer role is read-only
 * in the UI and refused by the API, mutations need the same origin, and a loopback server with
 * no token configured is open and says so.
 */
import { startApp } from '../tests/support/app-server';
import { expect, logIn, OPERATOR_TOKEN, test, VIEWER_TOKEN } from './fixtures';

test('a wrong token is refused at the field; a good one sets an httpOnly session cookie', async ({ page, context }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Token').fill('not-the-token-at-all');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('token-error')).toContainText('not valid');
  await page.getByLabel('Token').fill(OPERATOR_TOKEN);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Tasks' })).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name === 'sb_session');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie?.value).not.toContain(OPERATOR_TOKEN);
  await expect(page.getByTestId('session-role')).toHaveText('operator');
});

test('a viewer cannot cancel or dispatch: the UI hides it and the API refuses it', async ({ page, a2a }) => {
  const id = await a2a.send('slow', 'work 20s chunks 4');
  await logIn(page, VIEWER_TOKEN);
  await expect(page.getByTestId('session-role')).toHaveText('viewer');
  await expect(page.getByRole('link', { name: 'Dispatch' })).toHaveCount(0);
  await page.goto(`/tasks/${id}`);
  await expect(page.getByTestId('task-state')).toBeVisible();
  await expect(page.getByTestId('cancel-task')).toHaveCount(0);
  await expect(page.getByTestId('dispatch-again')).toHaveCount(0);
  await page.goto('/dispatch');
  await expect(page.getByTestId('dispatch-forbidden')).toBeVisible();

  // The same browser session, straight at the API (same origin, cookie attached).
  const origin = new URL(page.url()).origin;
  const cancel = await page.request.post(`/api/tasks/${id}/cancel`, { headers: { origin } });
  expect(cancel.status()).toBe(403);
  const dispatch = await page.request.post('/api/dispatch', { headers: { origin }, data: { peer: 'self', text: 'hi', mode: 'blocking' } });
  expect(dispatch.status()).toBe(403);
  expect((await dispatch.json()).error.code).toBe('forbidden');
});

test('an operator can cancel; a cross-origin mutation is refused even with the cookie', async ({ page, a2a }) => {
  const id = await a2a.send('slow', 'work 20s chunks 4');
  await logIn(page, OPERATOR_TOKEN);
  const evil = await page.request.post(`/api/tasks/${id}/cancel`, { headers: { origin: 'http://evil.example' } });
  expect(evil.status()).toBe(403);
  expect((await evil.json()).error.code).toBe('cross_origin');

  await page.goto(`/tasks/${id}`);
  await expect(page.getByTestId('task-owner')).toHaveText('anonymous');
  await page.getByTestId('cancel-task').click();
  await page.getByRole('button', { name: 'Confirm cancel' }).click();
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'canceled');
  await expect(page.getByTestId('end-reason')).toContainText('canceled by operator');
});

test('with no token on a loopback bind the dashboard is open and says so', async ({ browser }) => {
  const open = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1' });
  try {
    const page = await browser.newPage({ baseURL: open.url });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Tasks' })).toBeVisible();
    await expect(page.getByTestId('open-mode')).toContainText('no operator token');
    await expect(page.getByRole('link', { name: 'Dispatch' })).toBeVisible();
    await page.close();
  } finally {
    await open.kill();
  }
});
