#!/usr/bin/env node
/**
 * An example Switchboard rpc worker (protocol switchboard.worker/1, docs/worker-protocol.md).
 * Plain Node, no dependencies: copy it as the skeleton of a real worker.
 *
 * One worker serves one conversation (A2A context) and keeps state between turns; here the
 * state is just a turn counter. It understands a few prompt commands, so that it can show
 * (and the launcher tests can exercise) every part of the protocol:
 *
 *   stream <n> [<delayMs>]  n artifact chunks "chunk <i>\n", then a final frame with no content
 *   sleep <ms>              a progress frame, then the reply after <ms> (abortable meanwhile)
 *   ask <question>          ends the turn input-required
 *   reply <text>            a direct-message reply (the caller gets a Message, not a task)
 *   recap                   what the prompt frame said of the conversation: turn, message id,
 *                           earlier messages (a fresh worker knows them too, from `history`)
 *   fail <message>          an error frame
 *   anything else           the reply "echo: <text>"
 *
 * Logs go to stderr; stdout carries frames only. EOF on stdin means "exit now".
 */
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';

const PROTOCOL = 'switchboard.worker/1';

let turns = 0;
/** The running turn: its task id and the timers that finish it, so that abort can cancel them. */
let current = null;

function send(frame) {
  process.stdout.write(`${JSON.stringify(frame)}\n`);
}

function later(ms, action) {
  const timer = setTimeout(() => {
    current?.timers.delete(timer);
    action();
  }, ms);
  current.timers.add(timer);
}

function finish(frame) {
  send({ ...frame, taskId: current.taskId });
  current = null;
}

function stream(count, delayMs) {
  const { taskId } = current;
  for (let i = 1; i <= count; i++) {
    later(i * delayMs, () => {
      send({ type: 'artifact', taskId, artifactId: 'stream', name: 'stream', text: `chunk ${i}\n`, append: i > 1, lastChunk: i === count });
      if (i === count) finish({ type: 'final' });
    });
  }
}

function onPrompt(frame) {
  turns += 1;
  current = { taskId: frame.taskId, timers: new Set() };
  const [command, ...rest] = frame.text.trim().split(/\s+/);
  const arg = rest.join(' ');
  if (command === 'stream') return stream(Number(rest[0]) || 3, Number(rest[1]) || 10);
  if (command === 'sleep') {
    send({ type: 'progress', taskId: frame.taskId, text: `sleeping ${arg} ms` });
    return later(Number(arg) || 1000, () => finish({ type: 'final', text: `slept ${arg} ms` }));
  }
  if (command === 'ask') return finish({ type: 'input-required', text: arg || 'What next?' });
  if (command === 'reply') return finish({ type: 'message', text: arg || 'ok' });
  if (command === 'recap') return finish({ type: 'final', text: recap(frame) });
  if (command === 'fail') return finish({ type: 'error', message: arg || 'failed on request' });
  finish({ type: 'final', text: `echo: ${frame.text}`, metadata: { turn: turns, pid: process.pid, contextId: frame.contextId } });
}

/** The conversation as this turn's prompt frame carries it (older hubs send no history). */
function recap(frame) {
  const said = (frame.history ?? []).map((m) => `${m.role}: ${m.parts.filter((p) => p.kind === 'text').map((p) => p.text).join('')}`);
  const dropped = frame.historyTruncated ? ' (older messages left out)' : '';
  return [`turn ${frame.turn ?? 1} of task ${frame.taskId}, message ${frame.messageId ?? '?'}${dropped}`, ...said].join('\n');
}

/** Always acknowledged, even for a task that already finished: the hub waits for this frame. */
function onAbort(frame) {
  if (current?.taskId === frame.taskId) {
    for (const timer of current.timers) clearTimeout(timer);
    current = null;
  }
  process.stderr.write(`aborting ${frame.taskId}: ${frame.reason}\n`);
  send({ type: 'aborted', taskId: frame.taskId });
}

send({ type: 'hello', protocol: PROTOCOL, worker: 'example-rpc-worker/1' });

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (!line.trim()) return;
  const frame = JSON.parse(line);
  if (frame.type === 'prompt') onPrompt(frame);
  else if (frame.type === 'abort') onAbort(frame);
});
input.on('close', () => process.exit(0));
