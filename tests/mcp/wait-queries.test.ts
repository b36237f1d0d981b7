/**
 * `wait` on a quiet task costs no database query while it waits. It sleeps on the
 * in-process event hub, so a 4 s wait costs exactly what a 0 s one does (the read when the call
 * starts). Counted with SWITCHBOARD_QUERY_LOG=1 (GET /api/debug/queries), which sees every
 * connection the app opens, as tests/protocol/idle-queries.test.ts does. Open mode (no token):
 * /mcp answers a loopback caller like the dashboard API does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startApp, type AppServer } from '../support/app-server';
import { waitFor } from '../support/a2a-clients';
import { httpMcpClient, structuredOf, type TaskViewResult } from '../support/mcp-clients';

let app: AppServer;
let client: Client;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_QUERY_LOG: '1' });
  client = await httpMcpClient(app.url);
});
afterAll(async () => {
  await client?.close();
  await app?.kill();
});

const queryCounts = async () => (await (await fetch(`${app.url}/api/debug/queries`)).json()) as Record<string, number>;
const total = (counts: Record<string, number>) => counts.prisma + counts.sqlite + counts.checkpoints;

describe('wait on a quiet task', () => {
  it('costs no query while it waits: a 4 s wait costs what a 0 s wait does', async () => {
    const started = structuredOf<TaskViewResult>(await client.callTool({ name: 'dispatch', arguments: { target: `${app.url}/a2a/slow`, text: 'work 600s chunks 1', wait_seconds: 0 } }));
    // Quiet: the outbound task follows the slow agent, which says nothing for ten minutes.
    let cursor = started.cursor;
    await waitFor(async () => {
      const view = structuredOf<TaskViewResult>(await client.callTool({ name: 'wait', arguments: { taskId: started.taskId, since: cursor, seconds: 0 } }));
      const quiet = view.cursor === cursor && view.state === 'working';
      cursor = view.cursor;
      return quiet;
    }, 20_000, 300);
    let last = '';
    await waitFor(async () => {
      const now = JSON.stringify(await queryCounts());
      const unchanged = now === last;
      last = now;
      return unchanged;
    }, 20_000, 300);

    const measure = async (seconds: number) => {
      const before = await queryCounts();
      const t0 = Date.now();
      const view = structuredOf<TaskViewResult>(await client.callTool({ name: 'wait', arguments: { taskId: started.taskId, since: cursor, seconds } }));
      expect(view.state).toBe('working');
      expect(view.output).toBe('');
      return { queries: total(await queryCounts()) - total(before), ms: Date.now() - t0 };
    };
    const instant = await measure(0);
    const long = await measure(4);
    expect(long.ms).toBeGreaterThanOrEqual(4_000);
    expect(instant.queries).toBeGreaterThan(0); // the read when the call starts is counted
    expect(long.queries).toBe(instant.queries);
  });
});
