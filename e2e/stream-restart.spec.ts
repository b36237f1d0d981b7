/**
 * A dropped and restored stream: the server is killed mid-task and started again
 * on the same port and database. Restart recovery ends the interrupted inbound task FAILED
 * "interrupted: restart"; the open task page shows "reconnecting" meanwhile, then resumes with
 * Last-Event-ID and ends with every event, seq gapless, including that end.
 */
import { expect, logIn, OPERATOR_TOKEN, screenshot, test, timelineSeqs } from './fixtures';

test('the task page shows every event across a server restart', async ({ page, app, a2a, request }) => {
  await logIn(page, OPERATOR_TOKEN);
  const id = await a2a.send('slow', 'work 30s chunks 60');
  await page.goto(`/tasks/${id}`);
  await expect(page.getByTestId('stream-status')).toHaveAttribute('data-status', 'live');
  // Let a few chunks arrive live first.
  await expect.poll(async () => (await timelineSeqs(page)).length, { timeout: 15_000 }).toBeGreaterThan(8);

  await app.kill();
  await expect(page.getByTestId('stream-status')).toHaveAttribute('data-status', 'reconnecting');
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'detached'); // not "ended"
  await screenshot(page, 'task-page-reconnecting');
  await app.restart();

  await expect(page.getByTestId('task-state')).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(page.getByTestId('end-reason')).toContainText('interrupted: restart');
  await expect(page.getByTestId('stream-status')).toHaveAttribute('data-status', 'ended');

  const seqs = await timelineSeqs(page);
  const detail = (await (await request.get(`/api/tasks/${id}`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json()) as {
    task: { lastSeq: number };
  };
  expect(seqs).toEqual(Array.from({ length: detail.task.lastSeq }, (_, i) => i + 1));
  await expect(page.locator(`[data-seq="${detail.task.lastSeq}"]`)).toHaveAttribute('data-state', 'failed');
  await screenshot(page, 'task-page-after-restart');
});
