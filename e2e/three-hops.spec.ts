/**
 * Issue 16's check on the page: a three-hop chain across three instances (A's launched agent →
 * B → B's launched agent → C; tests/support/hop-chain.ts). A's task page shows the tree down to
 * C's task with states, and the timeline picture with the child's phases; screenshots in light
 * and dark go to e2e/screenshots/ for a person to read.
 */
import { randomUUID } from 'node:crypto';
import { expect, screenshot, test } from './fixtures';
import { startHopChain, type HopChain } from '../tests/support/hop-chain';

let chain: HopChain;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  chain = await startHopChain();
});
test.afterAll(async () => chain?.stop());

test("A's task page shows the chain down to C: tree, remote hops and the picture, light and dark", async ({ page }) => {
  const res = await fetch(`${chain.a.url}/a2a/delegator`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'go' }] }, configuration: { blocking: false } } }),
  });
  const aTask = ((await res.json()) as { result: { id: string } }).result.id;

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${chain.a.url}/tasks/${aTask}`);
  await expect(page.getByTestId('task-state')).toHaveText('completed', { timeout: 60_000 });
  const tree = page.getByTestId('delegation-tree');
  // A's child at B, and the peer's task page linked.
  await expect(tree.getByTestId('child-task')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect(tree.getByTestId('remote-hop')).toHaveAttribute('href', new RegExp(`^${chain.b.url}/tasks/`));
  // B's child at C (read at B), completed, naming C's task.
  const remote = tree.getByTestId('remote-child');
  await expect(remote).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  const cTask = await remote.getAttribute('data-remote-task-id');
  const atC = (await (await fetch(`${chain.c.url}/api/tasks/${cTask}`)).json()) as { task: { state: string; agentSlug: string } };
  expect(atC.task).toMatchObject({ state: 'completed', agentSlug: 'echo' });
  // B does not tell an A2A caller where its peers are: no link to C's page.
  await expect(remote.getByRole('link')).toHaveCount(0);

  const picture = page.getByTestId('task-picture');
  await expect(picture.getByTestId('child-bar').getByTestId('child-phase').last()).toHaveAttribute('data-kind', 'ended');
  await screenshot(page, 'three-hops-light');
  await tree.screenshot({ path: 'e2e/screenshots/three-hops-tree-light.png' });
  await picture.screenshot({ path: 'e2e/screenshots/three-hops-picture-light.png' });

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/dark/);
  await screenshot(page, 'three-hops-dark');
  await tree.screenshot({ path: 'e2e/screenshots/three-hops-tree-dark.png' });
  await picture.screenshot({ path: 'e2e/screenshots/three-hops-picture-dark.png' });
});
