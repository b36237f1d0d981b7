/**
 * An A2A caller's escape sequences (window title, clear screen, an OSC 52 clipboard
 * write, a C1 CSI) must not reach the operator's terminal through `tasks ls`, `show` or `watch`;
 * `--json` still gives the caller's text exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { runCli } from '../support/cli';

const OPERATOR = 'terminal-operator-token-0123456789';
const HOSTILE = 'hello\x1b]0;pwned\x07 \x1b[2J\x1b]52;c;aWQgPiBmaWxl\x07 \x9b31m world\r';
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let app: AppServer;
let env: Record<string, string>;
let taskId: string;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR });
  env = { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: OPERATOR };
  const res = await fetch(`${app.url}/a2a/echo/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: { messageId: 'm-hostile', role: 'ROLE_USER', parts: [{ text: HOSTILE }] } }),
  });
  expect(res.status).toBe(200);
  taskId = ((await res.json()) as { task: { id: string } }).task.id;
});
afterAll(async () => app?.stop());

describe('caller-controlled text on the operator terminal', () => {
  for (const args of [['tasks', 'ls'], ['tasks', 'show', '<id>'], ['tasks', 'watch', '<id>']]) {
    it(`${args.slice(0, 2).join(' ')} prints no control character, and shows that one was there`, async () => {
      const run = await runCli(args.map((a) => (a === '<id>' ? taskId : a)), env);
      expect(run.code).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(CONTROL);
      expect(run.stdout).toMatch(/hello\\x1b\]0;pwned\\x07/);
    });
  }

  it('--json keeps the caller text exact', async () => {
    const run = await runCli(['tasks', 'show', taskId, '--json'], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).task.requestText).toBe(HOSTILE);
  });
});
