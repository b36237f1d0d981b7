/**
 * The whole message at the launcher level, with real child processes: the prompt frame carries the
 * whole message and the conversation (bounded, oldest dropped first, flagged); `{message_id}`
 * and `stdin: "json"` give a process agent the same; a worker can reply with a direct message;
 * a process agent can end its turn input-required by a JSON field or a text marker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agent, makeRunner, NODE } from '../../tests/fixtures/launcher-test-kit';
import { RecordingTurn } from '../../tests/fixtures/recording-turn';
import type { Conversation, TurnOutcome } from '../agent-runner';
import type { LauncherRunner, LauncherSpecInput } from './index';
import { fitFrameLine } from './prompt-frame';
import type { PromptFrame } from './rpc/frames';

const runners: LauncherRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
});

function runner(input: LauncherSpecInput): LauncherRunner {
  const made = makeRunner({ killGraceMs: 200, ...input } as LauncherSpecInput);
  runners.push(made);
  return made;
}

const echoWorker = (spec: Partial<Extract<LauncherSpecInput, { type: 'rpc' }>> = {}) =>
  runner({ type: 'rpc', command: [NODE, agent('rpc-frame-echo.mjs')], ...spec });

function frameOf(outcome: TurnOutcome): PromptFrame {
  if (outcome.state !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  const part = outcome.parts?.[0];
  if (part?.kind !== 'data') throw new Error('expected a data part');
  return (part.data as { frame: PromptFrame }).frame;
}

const earlier: Conversation = {
  messages: [
    { kind: 'message', messageId: 'm0', role: 'user', parts: [{ kind: 'text', text: 'first question' }], taskId: 't0' },
    { kind: 'message', messageId: 'm0r', role: 'agent', parts: [{ kind: 'text', text: 'first answer' }], taskId: 't0' },
  ],
  artifacts: [{ artifactId: 'a0', name: 'report', parts: [{ kind: 'text', text: 'report body' }], taskId: 't0' }],
  truncated: true,
};

describe('the prompt frame', () => {
  it('carries the message id, metadata, referenceTaskIds, the turn number and the bounded conversation', async () => {
    const worker = echoWorker({ historyMaxItems: 7, historyMaxBytes: 5000 });
    const turn = new RecordingTurn({
      text: 'hello',
      turnNumber: 2,
      message: { messageId: 'tck-complete-task-123', metadata: { via: 'test' }, referenceTaskIds: ['t-ref'] },
      conversation: earlier,
    });
    const frame = frameOf(await worker.runTurn(turn));
    expect(frame).toMatchObject({
      type: 'prompt',
      taskId: turn.taskId,
      contextId: turn.contextId,
      text: 'hello',
      parts: [{ kind: 'text', text: 'hello' }],
      messageId: 'tck-complete-task-123',
      metadata: { via: 'test' },
      referenceTaskIds: ['t-ref'],
      turn: 2,
      history: earlier.messages,
      artifacts: earlier.artifacts,
      historyTruncated: true,
    });
    expect(turn.conversationBounds).toEqual([{ maxItems: 7, maxBytes: 5000 }]);
  });

  it('fits the frame limit by dropping the oldest history first, and says so', () => {
    const big = (id: string) => ({ kind: 'message' as const, messageId: id, role: 'user' as const, parts: [{ kind: 'text' as const, text: 'x'.repeat(400) }] });
    const frame: PromptFrame = {
      type: 'prompt', taskId: 't', contextId: 'c', agent: 'a', peer: 'p', text: 'now', parts: [{ kind: 'text', text: 'now' }],
      messageId: 'm', turn: 1, history: [big('old'), big('mid'), big('new')], artifacts: [], historyTruncated: false,
    };
    const line = fitFrameLine(frame, 1200)!;
    const fitted = JSON.parse(line) as PromptFrame;
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(1200);
    expect(fitted.history.map((m) => m.messageId)).toEqual(['mid', 'new']);
    expect(fitted.historyTruncated).toBe(true);
    expect(fitFrameLine({ ...frame, history: [], text: 'y'.repeat(2000) }, 1200)).toBeNull();
  });
});

describe('direct-message replies', () => {
  it('a "message" frame ends the turn as a direct message, with its metadata', async () => {
    const outcome = await echoWorker().runTurn(new RecordingTurn({ text: 'message please' }));
    expect(outcome).toEqual({ state: 'message', parts: [{ kind: 'text', text: 'direct: message please' }], metadata: { direct: true } });
  });

  it('a direct message after artifact chunks fails the turn with the reason', async () => {
    const worker = runner({
      type: 'rpc',
      command: [NODE, '-e', `
        const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
        send({ type: 'hello', protocol: 'switchboard.worker/1' });
        require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
          const f = JSON.parse(l);
          send({ type: 'artifact', taskId: f.taskId, artifactId: 'a', text: 'x' });
          send({ type: 'message', taskId: f.taskId, text: 'hi' });
        });`],
    });
    const outcome = await worker.runTurn(new RecordingTurn());
    expect(outcome).toMatchObject({ state: 'failed', reason: expect.stringContaining('message frame after artifact chunks') });
  });
});

describe('process agents: the whole message and input-required', () => {
  const jsonOutput = { format: 'json' as const, replyField: 'result', sessionIdField: 'session_id', inputRequiredField: 'ask' };

  it('{message_id} in argv, and stdin "json" with the prompt frame fields', async () => {
    const cli = runner({
      type: 'process',
      command: [NODE, agent('stdin-json.mjs'), '--id={message_id}'],
      resume: [NODE, agent('stdin-json.mjs'), '--resume', '{session_id}'],
      stdin: 'json',
      output: jsonOutput,
      historyMaxItems: 3,
      historyMaxBytes: 4096,
    });
    const turn = new RecordingTurn({ text: 'go', turnNumber: 1, message: { messageId: 'msg-42', metadata: { k: 1 } }, conversation: earlier });
    const outcome = await cli.runTurn(turn);
    if (outcome.state !== 'completed' || outcome.parts?.[0].kind !== 'text') throw new Error(JSON.stringify(outcome));
    expect(JSON.parse(outcome.parts[0].text)).toEqual({
      args: ['--id=msg-42'],
      messageId: 'msg-42',
      turn: 1,
      metadata: { k: 1 },
      history: ['user: first question', 'agent: first answer'],
      historyTruncated: true,
    });
    expect(turn.conversationBounds).toEqual([{ maxItems: 3, maxBytes: 4096 }]);
  });

  it('a JSON field makes the turn input-required; the answer resumes the same session as the next turn', async () => {
    const cli = runner({
      type: 'process',
      command: [NODE, agent('stdin-json.mjs')],
      resume: [NODE, agent('stdin-json.mjs'), '--resume', '{session_id}'],
      stdin: 'json',
      output: jsonOutput,
    });
    const asked = await cli.runTurn(new RecordingTurn({ contextId: 'ctx-ask', text: 'ask me' }));
    expect(asked).toEqual({ state: 'input-required', parts: [{ kind: 'text', text: 'Which file should I change?' }] });
    const answered = await cli.runTurn(new RecordingTurn({ contextId: 'ctx-ask', text: 'README.md', turnNumber: 2 }));
    if (answered.state !== 'completed' || answered.parts?.[0].kind !== 'text') throw new Error(JSON.stringify(answered));
    expect(JSON.parse(answered.parts[0].text)).toMatchObject({ args: ['--resume', 's-ctx-ask'], turn: 2 });
  });

  it('a text marker line makes the turn input-required, and is not part of the question', async () => {
    const cli = runner({
      type: 'process',
      command: [NODE, '-e', 'process.stdout.write(process.argv[1] === "ask" ? "Which branch?\\n  [[needs-input]]  \\n" : "done [[needs-input]] inline")', '{prompt}'],
      output: { format: 'text', inputRequiredMarker: '[[needs-input]]' },
    });
    expect(await cli.runTurn(new RecordingTurn({ text: 'ask' }))).toEqual({ state: 'input-required', parts: [{ kind: 'text', text: 'Which branch?' }] });
    // Only a line that is the marker counts: the same text inside a line is an ordinary reply.
    expect(await cli.runTurn(new RecordingTurn({ text: 'other' }))).toEqual({ state: 'completed', parts: [{ kind: 'text', text: 'done [[needs-input]] inline' }] });
  });
});
