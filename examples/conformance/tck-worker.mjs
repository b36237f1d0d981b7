#!/usr/bin/env node
/**
 * The A2A TCK's scenario agent as a Switchboard rpc worker (protocol switchboard.worker/1,
 * docs/worker-protocol.md). Plain Node, no dependencies; shipped in examples/conformance/.
 *
 * The official TCK (github.com/a2aproject/a2a-tck) drives its system under test by the prefix of
 * each message id: "tck-complete-task-<session>" must complete with "Hello from TCK", and so on.
 * This worker is that scenario agent, so the TCK can run against a real Switchboard serving it
 * through an rpc launcher. The hub must stay generic: it passes the message id on in the prompt
 * frame like any other field, and never looks at it itself.
 *
 * Environment (list these names in the launcher's passEnv, or set them in its env):
 *   TCK_PROFILE            "1.0" (default): the 1.0-dev TCK's prefix table (tck/scenarios/*.feature).
 *                          "0.3": the 0.3.x TCK's needs: every turn streams an echo artifact and
 *                          ends input-required, so tests can continue and cancel the task; only
 *                          test-resubscribe-message-id* stays working, then completes.
 *   TCK_STREAMING_TIMEOUT  seconds (default 2), the TCK's own setting: the resubscribe scenario
 *                          stays working for 2 x this (plus 0.5 s in the 0.3 profile).
 *   TCK_MESSAGE_FRAME      the frame type of a direct-message reply (default "message"; see below).
 *   TCK_ID_FROM_TEXT=1     testing aid only: when the prompt frame carries no message id, route on
 *                          the message text instead (for trying the branches against a hub that
 *                          does not pass the id yet). Never set it for a TCK run.
 *
 * Logs go to stderr; stdout carries frames only. EOF on stdin means "exit now".
 */
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';

const PROTOCOL = 'switchboard.worker/1';
const PROFILE = process.env.TCK_PROFILE === '0.3' ? '0.3' : '1.0';
const STREAMING_TIMEOUT_MS = Math.max(0, Number(process.env.TCK_STREAMING_TIMEOUT || 2) * 1000 || 2000);
// A2A lets an agent answer with a Message instead of a Task. switchboard.worker/1 has no frame for
// that yet (the launcher issue asks for one); until docs/worker-protocol.md names it, this worker
// sends {type:"message", taskId, text}. A hub that does not know the type treats it as a
// protocol error, so only the tck-message-response scenario depends on it.
const MESSAGE_FRAME = process.env.TCK_MESSAGE_FRAME || 'message';
const ID_FROM_TEXT = process.env.TCK_ID_FROM_TEXT === '1';
// "tck" as base64, the raw bytes of the file scenarios.
const TCK_BYTES = Buffer.from('tck').toString('base64');

/** Turns in flight by task id (the hub sends one at a time; a map keeps abort exact anyway). */
const turns = new Map();

function send(frame) {
  process.stdout.write(`${JSON.stringify(frame)}\n`);
}
function log(text) {
  process.stderr.write(`tck-worker: ${text}\n`);
}

/** The message id: the prompt frame's `messageId`, or the message's own (`message.messageId`). */
function messageIdOf(frame) {
  const id = frame.messageId ?? frame.message?.messageId ?? frame.message?.message_id;
  if (typeof id === 'string' && id) return id;
  return ID_FROM_TEXT && typeof frame.text === 'string' ? frame.text.trim() : undefined;
}

/** Runs one turn as a list of steps; each step may wait, then sends frames. Abortable between steps. */
function play(taskId, steps) {
  const turn = { taskId, timer: null };
  turns.set(taskId, turn);
  const next = (i) => {
    if (turns.get(taskId) !== turn) return; // aborted
    if (i >= steps.length) return;
    const { waitMs = 0, frame } = steps[i];
    const fire = () => {
      if (turns.get(taskId) !== turn) return;
      const frames = Array.isArray(frame) ? frame : [frame];
      for (const f of frames) send({ type: f.type, taskId, ...f });
      if (frames.some((f) => ENDS_TURN.has(f.type))) turns.delete(taskId);
      next(i + 1);
    };
    if (waitMs > 0) turn.timer = setTimeout(fire, waitMs);
    else fire();
  };
  next(0);
}
const ENDS_TURN = new Set(['final', 'input-required', 'error', MESSAGE_FRAME]);

const working = { frame: { type: 'progress', text: 'working' } };
const artifact = (artifactId, parts, extra = {}) => ({ frame: { type: 'artifact', artifactId, parts, ...extra } });
const text = (t) => [{ kind: 'text', text: t }];
// A final frame with neither content nor streamed artifacts fails the turn "empty reply", so the
// scenarios that only complete send a minimal text.
const complete = (t) => ({ frame: t === undefined ? { type: 'final' } : { type: 'final', text: t } });
const rawFile = [{ kind: 'file', file: { bytes: TCK_BYTES, mimeType: 'text/plain', name: 'output.txt' } }];
const urlFile = [{ kind: 'file', file: { uri: 'https://example.com/output.txt', mimeType: 'text/plain', name: 'output.txt' } }];

/** The 1.0-dev table, most specific prefixes first (tck/sut/a2a-python/sut_agent.py). */
const TABLE_1_0 = [
  ['tck-stream-artifact-chunked', () => [
    working,
    artifact('chunked', text('chunk-1 '), { append: true, lastChunk: false }),
    artifact('chunked', text('chunk-2'), { append: true, lastChunk: true }),
    complete(),
  ]],
  ['test-resubscribe-message-id', () => [working, { waitMs: 2 * STREAMING_TIMEOUT_MS, ...complete('completed after the resubscribe wait') }]],
  ['tck-stream-artifact-text', () => [working, artifact('text', text('Streamed text content')), complete()]],
  ['tck-stream-artifact-file', () => [working, artifact('file', rawFile), complete()]],
  ['tck-stream-ordering-001', () => [working, artifact('ordered', text('Ordered output')), complete()]],
  ['tck-artifact-file-url', () => [artifact('file-url', urlFile), complete()]],
  ['tck-message-response', () => [{ frame: { type: MESSAGE_FRAME, text: 'Direct message response' } }]],
  // switchboard.worker/1 refuses an input-required frame without a question, so one is sent.
  ['tck-input-required', () => [{ frame: { type: 'input-required', text: 'Input required: send a follow-up message.' } }]],
  ['tck-complete-task', () => [complete('Hello from TCK')]],
  ['tck-artifact-text', () => [artifact('text', text('Generated text content')), complete()]],
  ['tck-artifact-file', () => [artifact('file', rawFile), complete()]],
  ['tck-artifact-data', () => [artifact('data', [{ kind: 'data', data: { key: 'value', count: 42 } }]), complete()]],
  ['tck-reject-task', () => [{ frame: { type: 'error', message: 'rejected' } }]],
  ['tck-stream-001', () => [working, artifact('stream', text('Stream hello from TCK')), complete()]],
  // "completed only": the smallest reply the protocol accepts (see `complete`).
  ['tck-stream-002', () => [complete('completed')]],
  ['tck-stream-003', () => [working, artifact('lifecycle', text('Stream task lifecycle')), complete()]],
];

function steps1_0(id) {
  const hit = id === undefined ? undefined : TABLE_1_0.find(([prefix]) => id.startsWith(prefix));
  if (hit) return hit[1]();
  return [complete(`Unhandled messageId prefix: ${id ?? '(no messageId in the prompt frame)'}`)];
}

/** 0.3.x: keep every task open (input-required) after an echo, except the resubscribe test. */
function steps0_3(id, frame, turnNo) {
  const echo = artifact(`echo-${turnNo}`, text(`echo: ${frame.text ?? ''}`), { name: 'echo' });
  if (id?.startsWith('test-resubscribe-message-id')) {
    return [working, { waitMs: 2 * STREAMING_TIMEOUT_MS + 500, ...echo }, complete()];
  }
  return [working, echo, { frame: { type: 'input-required', text: 'What should I do next? (send a follow-up message, or cancel the task)' } }];
}

let turnNo = 0;
function onPrompt(frame) {
  turnNo += 1;
  const id = messageIdOf(frame);
  log(`prompt ${frame.taskId} messageId=${id ?? '-'} profile=${PROFILE}`);
  play(frame.taskId, PROFILE === '0.3' ? steps0_3(id, frame, turnNo) : steps1_0(id));
}

/** Always acknowledged, even for a task that already finished: the hub waits for this frame. */
function onAbort(frame) {
  const turn = turns.get(frame.taskId);
  if (turn) {
    clearTimeout(turn.timer);
    turns.delete(frame.taskId);
  }
  log(`abort ${frame.taskId}: ${frame.reason ?? ''}`);
  send({ type: 'aborted', taskId: frame.taskId });
}

send({ type: 'hello', protocol: PROTOCOL, worker: `a2a-tck-scenario-worker/1 (profile ${PROFILE})` });

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (!line.trim()) return;
  let frame;
  try {
    frame = JSON.parse(line);
  } catch {
    log(`ignoring a line that is not JSON: ${line.slice(0, 80)}`);
    return;
  }
  if (frame.type === 'prompt') onPrompt(frame);
  else if (frame.type === 'abort') onAbort(frame);
  else log(`ignoring frame type ${JSON.stringify(frame.type)}`);
});
input.on('close', () => process.exit(0));
