/**
 * The conformance scenario agent shipped in examples/conformance/ keeps working.
 * The app is started with the example config as the README's suite run starts it (tck the
 * default agent): the origin-root card is the scenario agent's, with its extended card; one
 * scenario (`tck-complete-task-…` completes with "Hello from TCK") runs through the real worker;
 * `tck-required` refuses a message without the suite's required extension and runs one with it.
 * The suite sends one messageId per scenario on every binding, so a repeat of a send answered
 * with a direct message must be answered with that message again (decision 241).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, sseResults } from '../support/a2a-clients';

const V1 = { 'A2A-Version': '1.0' };
const REQUIRED = 'urn:a2a:tck:required-extension';
let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_CONFIG: path.resolve('examples/conformance/tck-agent.yaml'), SWITCHBOARD_DEFAULT_AGENT: 'tck' });
});
afterAll(async () => app?.stop());

const scenario = (prefix: string) => ({ message: { messageId: `${prefix}-${crypto.randomUUID()}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] }, configuration: { blocking: true } });

describe('examples/conformance (the TCK scenario agent)', () => {
  it('the origin-root card is the scenario agent, declaring its extended card', async () => {
    const card = await (await fetch(`${app.url}/.well-known/agent-card.json`, { headers: V1 })).json();
    expect(card.name).toBe('A2A TCK scenario agent');
    expect(card.capabilities.extendedAgentCard).toBe(true);
    const extended = await rpc(`${app.url}/a2a`, 'GetExtendedAgentCard', {}, V1);
    expect(extended.body.result.skills.map((s: { id: string }) => s.id)).toEqual(['tck', 'tck-extended']);
  });

  it('answers a scenario by its message id prefix: tck-complete-task completes with "Hello from TCK"', async () => {
    const res = await rpc(`${app.url}/a2a`, 'SendMessage', scenario('tck-complete-task'), V1);
    const task = res.body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(task)).toContain('Hello from TCK');
  });

  it('tck-required requires the suite extension (CORE-CAP-004): -32008 without it, the scenario with it', async () => {
    const card = await (await fetch(`${app.url}/a2a/tck-required/.well-known/agent-card.json`, { headers: V1 })).json();
    expect(card.capabilities.extensions).toContainEqual(expect.objectContaining({ uri: REQUIRED, required: true }));
    const refused = await rpc(`${app.url}/a2a/tck-required`, 'SendMessage', scenario('tck-complete-task'), V1);
    expect(refused.body.error.code).toBe(-32008);
    const ok = await rpc(`${app.url}/a2a/tck-required`, 'SendMessage', scenario('tck-complete-task'), { ...V1, 'A2A-Extensions': REQUIRED });
    expect(ok.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a repeated messageId answered with a direct message gets the message again (JSON-RPC, HTTP+JSON, streaming), not the task', async () => {
    const send = scenario('tck-message-response');
    const first = (await rpc(`${app.url}/a2a`, 'SendMessage', send, V1)).body.result;
    expect(first.message.parts).toEqual([{ text: 'Direct message response' }]);
    const again = (await rpc(`${app.url}/a2a`, 'SendMessage', send, V1)).body.result;
    const rest = await (await fetch(`${app.url}/a2a/tck/message:send`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...V1 }, body: JSON.stringify(send) })).json();
    const streamed = sseResults((await rpc(`${app.url}/a2a`, 'SendStreamingMessage', send, V1)).text);
    for (const answer of [again, rest, ...streamed]) {
      expect(answer).not.toHaveProperty('task');
      expect(answer).toMatchObject({ message: { messageId: first.message.messageId, parts: [{ text: 'Direct message response' }] } });
    }
    expect(streamed).toHaveLength(1);
  });
});
