/**
 * Issue 11 §5: `/login?next=…` sends the browser only to a path on this origin. Chromium reads
 * `/\evil.example`, `/%09/evil.example` (it drops the tab) and `/.//evil.example` as another
 * origin, so each must land on the dashboard instead, before and after a real login; and no other
 * site may frame the dashboard.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, OPERATOR_TOKEN, test } from './fixtures';

const HOSTILE = ['/%5Cevil.example/', '/%09/evil.example/', '//evil.example/', '/.//evil.example/', 'https://evil.example/', '/%5C%5Cevil.example', '/%0A/evil.example'];

test('a login link cannot bounce the browser to another origin', async ({ page, app }) => {
  for (const next of HOSTILE) {
    await page.context().clearCookies();
    await page.goto(`/login?next=${next}`);
    await page.getByLabel('Token').fill(OPERATOR_TOKEN);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('heading', { name: 'Tasks' })).toBeVisible();
    expect(new URL(page.url()).origin, next).toBe(app.url);
  }
  // Already logged in: the login page redirects at once, to the same safe place.
  for (const next of HOSTILE) {
    await page.goto(`/login?next=${next}`);
    await expect(page.getByRole('heading', { name: 'Tasks' })).toBeVisible();
    expect(new URL(page.url()).origin, next).toBe(app.url);
  }
});

test('a same-origin next path is kept', async ({ page }) => {
  await page.goto('/login?next=/peers');
  await page.getByLabel('Token').fill(OPERATOR_TOKEN);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/peers$/);
});

test('another site cannot frame the dashboard (frame-ancestors none)', async ({ page, app }) => {
  // A page of another origin (its own server on another port) that embeds the login page.
  const site = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<title>framing</title><iframe id="f" src="${app.url}/login" onload="document.title='loaded'"></iframe>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    await expect(page).toHaveTitle('loaded'); // the frame finished, showing whatever it may
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(frame.url()).not.toBe(`${app.url}/login`); // Chromium replaced it with its error page
    expect(await frame.locator('#token').count()).toBe(0);
  } finally {
    site.close();
  }
});
