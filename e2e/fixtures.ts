/**
 * Shared e2e fixtures: one Switchboard per worker (operator and viewer tokens configured,
 * response window W = 1 s), `baseURL` pointing at it, login helpers and an A2A client that
 * creates inbound tasks the way a peer would.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startApp, type AppServer } from '../tests/support/app-server';

export const OPERATOR_TOKEN = 'e2e-operator-token-0123456789';
export const VIEWER_TOKEN = 'e2e-viewer-token-0123456789ab';

export const APP_ENV = {
  SWITCHBOARD_RESPONSE_WINDOW: '1',
  SWITCHBOARD_OPERATOR_TOKEN: OPERATOR_TOKEN,
  SWITCHBOARD_VIEWER_TOKEN: VIEWER_TOKEN,
};

export interface A2A {
  /** message/send (non-blocking) to one of our agents; resolves to the new task's id. */
  send(agent: string, text: string): Promise<string>;
}

interface WorkerFixtures {
  app: AppServer;
}

interface TestFixtures {
  a2a: A2A;
  /** Fails the test on an uncaught page error or a React hydration mismatch. */
  pageErrors: void;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  app: [
    // Playwright reads fixture dependencies from the destructuring pattern; none are needed.
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide) => {
      const app = await startApp(APP_ENV);
      try {
        await provide(app);
      } finally {
        await app.kill();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ app }, provide) => provide(app.url),
  pageErrors: [
    async ({ context }, provide) => {
      const errors: string[] = [];
      context.on('weberror', (e) => errors.push(e.error().message));
      context.on('console', (msg) => {
        if (msg.type() === 'error' && /hydrat/i.test(msg.text())) errors.push(msg.text());
      });
      await provide();
      expect(errors, 'page errors').toEqual([]);
    },
    { auto: true },
  ],
  a2a: async ({ app }, provide) => {
    await provide({
      async send(agent, text) {
        const res = await fetch(`${app.url}/a2a/${agent}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'message/send',
            params: {
              message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
              configuration: { blocking: false },
            },
          }),
        });
        const body = (await res.json()) as { result?: { id?: string }; error?: unknown };
        if (!body.result?.id) throw new Error(`message/send to ${agent} failed: ${JSON.stringify(body)}`);
        return body.result.id;
      },
    });
  },
});

export { expect };

/** Logs in through the login page, as an operator would. */
export async function logIn(page: Page, token: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Tasks' })).toBeVisible();
}

/** Every seq from 1 to the last appears exactly once on the task page's timeline. */
export async function timelineSeqs(page: Page): Promise<number[]> {
  return page.getByTestId('timeline-entry').evaluateAll((items) =>
    items.flatMap((el) => {
      const one = el.getAttribute('data-seq');
      if (one) return [Number(one)];
      const from = Number(el.getAttribute('data-seq-from'));
      const to = Number(el.getAttribute('data-seq-to'));
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    }),
  );
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}
