/**
 * The `process` launcher: one child process per turn (docs/launchers.md).
 */
import { TurnTracker } from './turn-tracker';
import type { AgentRunner, AgentTurn, TurnOutcome } from '../agent-runner';
import { textOf } from '../protocol/types';
import { linkedSignal } from '../util/abortable';
import { buildChildEnv } from './child-env';
import { EmitQueue } from './emit-queue';
import { launchRecorder, type LaunchRecorder } from './group-ledger';
import { KeyedLock } from './keyed-lock';
import { directoryProblem, type LauncherContext } from './launcher-context';
import { argvUses, substituteArgv, type PlaceholderValues } from './placeholders';
import { buildPromptFrame } from './prompt-frame';
import { abortReason, exitReason, withTail } from './reasons';
import { extractReply } from './reply';
import { createTurnResultFile, readResultFile, type ResultFileReading, type TurnResultFile } from './result-file';
import { runChild, STDERR_TAIL_BYTES, type ChildRunResult } from './run-child';
import type { SessionKey, StoredSession } from './session-store';
import type { ProcessLauncherSpec } from './spec';
import { StdoutArtifact } from './stdout-artifact';

export class ProcessLauncherRunner implements AgentRunner {
  private readonly locks = new KeyedLock();
  private readonly turns = new TurnTracker();
  private readonly resumeNeedsId: boolean;
  private readonly record: LaunchRecorder;

  constructor(
    private readonly spec: ProcessLauncherSpec,
    private readonly ctx: LauncherContext,
  ) {
    this.resumeNeedsId = spec.resume !== undefined && argvUses(spec.resume, 'session_id');
    this.record = launchRecorder(ctx.ledger, { agentSlug: ctx.slug, kind: 'process', killGraceMs: spec.killGraceMs }, ctx.log);
  }

  runTurn(turn: AgentTurn): Promise<TurnOutcome> {
    return this.turns.run(() => this.guardedTurn(turn));
  }

  /** Kills every running turn's process tree and waits for those turns to return. */
  async close(): Promise<void> {
    this.turns.close();
    await this.turns.settled();
  }

  private async guardedTurn(turn: AgentTurn): Promise<TurnOutcome> {
    const link = linkedSignal([turn.signal, this.turns.closing.signal]);
    try {
      // Turns of one context share an agent session only when resuming, so only then do they queue.
      if (!this.spec.resume) return await this.runOnce(turn, link.signal);
      const release = await this.locks.acquire(turn.contextId, link.signal);
      if (!release) return { state: 'failed', reason: abortReason(link.signal) };
      try {
        return await this.runOnce(turn, link.signal);
      } finally {
        release();
      }
    } finally {
      link.dispose();
    }
  }

  private async runOnce(turn: AgentTurn, signal: AbortSignal): Promise<TurnOutcome> {
    const cwdProblem = await directoryProblem(this.ctx.cwd);
    if (cwdProblem) return { state: 'failed', reason: cwdProblem };
    const resultFile = this.spec.resultFile ? await createTurnResultFile() : undefined;
    try {
      return await this.runChildTurn(turn, signal, resultFile);
    } finally {
      await resultFile?.dispose();
    }
  }

  private async runChildTurn(turn: AgentTurn, signal: AbortSignal, resultFile: TurnResultFile | undefined): Promise<TurnOutcome> {
    const resume = this.spec.resume;
    const key: SessionKey = { agent: this.ctx.slug, owner: turn.owner, contextId: turn.contextId };
    const session = resume ? await this.ctx.sessions.get(key) : undefined;
    const prompt = textOf(turn.message.parts);
    const argv = substituteArgv(resume && session ? resume : this.spec.command, this.placeholders(turn, prompt, session, resultFile));
    const stdinText = await this.stdinFor(turn, prompt);
    const queue = new EmitQueue();
    const stream = this.spec.streamStdout ? new StdoutArtifact(turn.emit, queue) : undefined;
    const result = await runChild({
      argv,
      cwd: this.ctx.cwd,
      // The hub's dispatch address, a token for children of this task, the task id (docs/launchers.md).
      env: { ...buildChildEnv(this.spec), ...this.ctx.turnEnv(turn.taskId) },
      stdinText,
      maxOutputBytes: this.spec.maxOutputBytes,
      timeoutSeconds: this.spec.timeoutSeconds,
      killGraceMs: this.spec.killGraceMs,
      signal,
      onStdout: stream && ((chunk) => stream.push(chunk)),
      log: this.ctx.log,
      record: this.record,
    });
    const outcome = await this.toOutcome(result, key, stream, resultFile);
    const emitFailure = await queue.drained();
    return emitFailure && outcome.state === 'completed' ? { state: 'failed', reason: emitFailure } : outcome;
  }

  /** `stdin: "json"`: the prompt frame's fields as one JSON document, history included. */
  private async stdinFor(turn: AgentTurn, prompt: string): Promise<string | undefined> {
    if (this.spec.stdin === 'prompt') return prompt;
    if (this.spec.stdin === 'json') return JSON.stringify(await buildPromptFrame(turn, this.ctx.slug, this.spec));
    return undefined;
  }

  private placeholders(turn: AgentTurn, prompt: string, session: StoredSession | undefined, resultFile: TurnResultFile | undefined): PlaceholderValues {
    return {
      result_file: resultFile?.path,
      prompt,
      context_id: turn.contextId,
      task_id: turn.taskId,
      message_id: turn.message.messageId,
      peer: turn.peer,
      agent: this.ctx.slug,
      session_id: session?.sessionId,
    };
  }

  private async toOutcome(result: ChildRunResult, key: SessionKey, stream: StdoutArtifact | undefined, resultFile: TurnResultFile | undefined): Promise<TurnOutcome> {
    if (result.kind === 'spawn-error') return { state: 'failed', reason: result.reason };
    if (result.kind === 'stopped') return { state: 'failed', reason: result.reason };
    const file = await this.readTurnResult(resultFile);
    // The program says in its own words that the run was cut short: that is the truth, whatever
    // stdout and the exit code look like. Its session still holds the work, so it is kept.
    if (file?.kind === 'read' && file.incomplete !== undefined) {
      if (file.sessionId) await this.ctx.sessions.set(key, { sessionId: file.sessionId });
      return { state: 'failed', reason: `run did not complete: ${file.incomplete}` };
    }
    if (result.code !== 0 || result.signal) {
      // A program that reports errors on stdout still gets its words into the reason.
      const tail = result.stderrTail.trim() ? result.stderrTail : result.stdout.subarray(-STDERR_TAIL_BYTES).toString('utf8');
      return { state: 'failed', reason: withTail(exitReason(result.code, result.signal), tail) };
    }
    if (file?.kind === 'invalid') return { state: 'failed', reason: file.reason };
    if (file?.kind === 'absent' && this.spec.resultFile?.required) {
      return { state: 'failed', reason: 'result file was not written (the program exited 0 without writing {result_file}; resultFile.required)' };
    }
    // Streamed chunks go out even if the reply is then rejected: they are what the child said.
    stream?.finish();
    const reply = extractReply(result.stdout, this.spec.output, this.spec.maxReplyBytes);
    if (!reply.ok) return { state: 'failed', reason: reply.reason };
    await this.rememberSession(key, reply.sessionId ?? (file?.kind === 'read' ? file.sessionId : undefined));
    // The question is said in the status message, streamed or not: the caller must see it there.
    if (reply.inputRequired) return { state: 'input-required', parts: [{ kind: 'text', text: reply.text }] };
    if (stream) return { state: 'completed', metadata: { launcher: { replyArtifactId: stream.artifactId } } };
    return { state: 'completed', parts: [{ kind: 'text', text: reply.text }] };
  }

  private async readTurnResult(resultFile: TurnResultFile | undefined): Promise<ResultFileReading | undefined> {
    if (!resultFile || !this.spec.resultFile) return undefined;
    return readResultFile(resultFile.path, this.spec.resultFile);
  }

  /**
   * After a completed turn, later turns of the context use `resume`. An agent that printed no
   * session id this time keeps the one it had: a missing id is not a reason to lose context.
   */
  private async rememberSession(key: SessionKey, sessionId: string | undefined): Promise<void> {
    if (!this.spec.resume) return;
    if (!this.resumeNeedsId) return this.ctx.sessions.set(key, {});
    if (sessionId) return this.ctx.sessions.set(key, { sessionId });
    const previous = await this.ctx.sessions.get(key);
    this.ctx.log('warn', `context ${key.contextId}: no session id found in the output; the next turn ${previous ? 'reuses the previous one' : 'starts a new session'}`);
  }
}
