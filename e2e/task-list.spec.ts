/**
 * The live list: counts per state as filters, direction / agent / text filters, the "N new
 * tasks" banner that keeps rows in place, the live/paused switch and cursor paging.
 */
import { randomUUID } from 'node:crypto';
import { expect, logIn, OPERATOR_TOKEN, test } from './fixtures';

test('counts, filters and search narrow the list; new tasks wait behind a banner', async ({ page, a2a }) => {
  const tag = `t${randomUUID().slice(0, 8)}`;
  await a2a.send('echo', `${tag} alpha apple`);
  await a2a.send('echo', `${tag} bravo banana`);
  await a2a.send('budget', `${tag} steps 4 budget 1`);
  await logIn(page, OPERATOR_TOKEN);

  // Counts follow every filter but the state one; the search narrows them to this test's tasks.
  await page.getByLabel('Search requests, status messages and results').fill(tag);
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  await expect(page.getByTestId('task-row')).toHaveCount(3);
  await expect(page.getByTestId('count-all-value')).toHaveText('3');
  await expect(page.getByTestId('count-completed-value')).toHaveText('2');
  await expect(page.getByTestId('count-failed-value')).toHaveText('1');
  // Each row names its owner: in open mode, the shared anonymous one.
  await expect(page.getByTestId('row-owner')).toHaveText(['by anonymous', 'by anonymous', 'by anonymous']);

  // A count is a filter.
  await page.getByTestId('count-failed').click();
  await expect(page.getByTestId('task-row')).toHaveCount(1);
  await expect(page.getByTestId('task-row')).toContainText('steps 4 budget 1');
  await expect(page.getByTestId('task-row')).toContainText('iteration budget exhausted');
  await page.getByTestId('count-failed').click();
  await expect(page.getByTestId('task-row')).toHaveCount(3);

  // Search reaches results too (the echo artifact), and the agent and direction filters apply.
  await page.getByLabel('Search requests, status messages and results').fill(`${tag} bravo`);
  await expect(page.getByTestId('task-row')).toHaveCount(1);
  await page.getByLabel('Search requests, status messages and results').fill(tag);
  await page.getByLabel('Agent or peer').fill('budget');
  await expect(page.getByTestId('task-row')).toHaveCount(1);
  await page.getByLabel('Agent or peer').fill('');
  await page.getByLabel('Direction').selectOption('outbound');
  await expect(page.getByTestId('empty-list')).toBeVisible();
  await page.getByLabel('Direction').selectOption('inbound');
  await expect(page.getByTestId('task-row')).toHaveCount(3);

  // A new matching task raises the banner; the rows on screen do not move until asked.
  const firstBefore = await page.getByTestId('task-row').first().getAttribute('data-task-id');
  const newId = await a2a.send('echo', `${tag} charlie cherry`);
  await expect(page.getByTestId('new-tasks-banner')).toHaveText(/1 new task/);
  await expect(page.getByTestId('task-row')).toHaveCount(3);
  expect(await page.getByTestId('task-row').first().getAttribute('data-task-id')).toBe(firstBefore);
  await expect(page.getByTestId('count-all-value')).toHaveText('4');
  await page.getByTestId('new-tasks-banner').click();
  await expect(page.getByTestId('task-row')).toHaveCount(4);
  await expect(page.getByTestId('task-row').first()).toHaveAttribute('data-task-id', newId);
  await expect(page.getByTestId('new-tasks-banner')).toBeHidden();

  // Paused: no stream, no banner; resuming catches up.
  await page.getByTestId('live-toggle').click();
  await expect(page.getByTestId('feed-status')).toHaveAttribute('data-status', 'paused');
  // A second, live page on the same list is the witness: once it announces the new task, the
  // feed has delivered it, and the paused page must still show nothing (no fixed wait).
  const witness = await page.context().newPage();
  const liveUrl = new URL(page.url());
  liveUrl.searchParams.delete('live');
  await witness.goto(liveUrl.toString());
  await expect(witness.getByTestId('feed-status')).toHaveAttribute('data-status', 'live');
  await a2a.send('echo', `${tag} delta date`);
  await expect(witness.getByTestId('new-tasks-banner')).toHaveText(/1 new task/);
  await witness.close();
  await expect(page.getByTestId('new-tasks-banner')).toBeHidden();
  await page.getByTestId('live-toggle').click();
  await expect(page.getByTestId('feed-status')).toHaveAttribute('data-status', 'live');
  await expect(page.getByTestId('new-tasks-banner')).toHaveText(/1 new task/);
});

test('cursor paging loads older tasks after the newest page', async ({ page, a2a }) => {
  const tag = `p${randomUUID().slice(0, 8)}`;
  for (let i = 0; i < 55; i++) await a2a.send('echo', `${tag} item ${i}`);
  await logIn(page, OPERATOR_TOKEN);
  await page.goto(`/?q=${tag}`);
  await expect(page.getByTestId('task-row')).toHaveCount(50);
  await expect(page.getByTestId('task-row').first()).toContainText(`${tag} item 54`);
  await page.getByTestId('load-more').click();
  await expect(page.getByTestId('task-row')).toHaveCount(55);
  await expect(page.getByTestId('task-row').last()).toContainText(`${tag} item 0`);
  await expect(page.getByTestId('load-more')).toBeHidden();
});
