/**
 * One long-lived worker process for one (agent, contextId), speaking switchboard.worker/1.
 *
 * Phases: starting (until its hello) → idle ⇄ busy (a turn) → aborting (abort sent, waiting
 * for the acknowledgement) → idle, or closed from anywhere. Any doubt about the worker (bad
 * frame, oversize, wrong version, exit mid-turn, no acknowledgement) evicts it: the tree is
 * killed first, then the turn ends `failed` with the reason, so a caller that sees the outcome
 * knows the processes are gone.
 */
import type { AgentTurn, TurnOutcome } from '../../agent-runner';
import { TailBuffer } from '../byte-buffers';
import { buildChildEnv } from '../child-env';
import { launchRecorder } from '../group-ledger';
import { substituteArgv } from '../placeholders';
import { ProcessGroup, type GroupExit, type GroupStreams } from '../process-group';
import type { LauncherContext } from '../launcher-context';
import { abortReason, exitReason, timeoutReason, withTail } from '../reasons';
import { STDERR_TAIL_BYTES } from '../run-child';
import type { RpcLauncherSpec } from '../spec';
import { buildPromptFrame, fitFrameLine } from '../prompt-frame';
import { FrameReader } from './frame-reader';
import { frameParts, parseWorkerFrame, WORKER_PROTOCOL, type HubFrame, type WorkerFrame } from './frames';
import { WorkerTurn } from './worker-turn';
import { settledWithin } from '../../util/abortable';

type Phase = 'starting' | 'idle' | 'busy' | 'aborting' | 'closed';

/** How long frames already in the pipe may take to arrive after the worker exits. */
const EXIT_DRAIN_MS = 500;

export class RpcWorker {
  /** Settles with null once the hello arrived, or with the reason the worker never got ready. */
  readonly ready: Promise<string | null>;
  /** Settles once the worker is closed and its process tree reaped. */
  readonly reaped: Promise<void>;
  lastUsed = Date.now();
  private phase: Phase = 'starting';
  private resolveReady!: (problem: string | null) => void;
  private resolveReaped!: () => void;
  private readonly group: ProcessGroup;
  private readonly streams: GroupStreams | null;
  private readonly reader: FrameReader;
  private readonly stderr = new TailBuffer(STDERR_TAIL_BYTES);
  private current?: WorkerTurn;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly spec: RpcLauncherSpec,
    private readonly ctx: LauncherContext,
    readonly contextId: string,
    private readonly onClosed: (worker: RpcWorker) => void,
  ) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.reaped = new Promise((resolve) => (this.resolveReaped = resolve));
    this.reader = new FrameReader(spec.maxFrameBytes);
    const argv = substituteArgv(spec.command, { agent: ctx.slug, context_id: contextId });
    const record = launchRecorder(ctx.ledger, { agentSlug: ctx.slug, kind: 'rpc', killGraceMs: spec.killGraceMs }, ctx.log);
    this.group = ProcessGroup.spawn(argv, { cwd: ctx.cwd, env: buildChildEnv(spec), stdin: 'pipe', record, killGraceMs: spec.killGraceMs }, ctx.log);
    this.streams = this.group.streams;
    void this.group.exited.then((exit) => this.onExit(exit));
    if (!this.streams) return;
    this.streams.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.streams.stderr.on('data', (chunk: Buffer) => this.onStderr(chunk));
    this.streams.stdin?.on('error', () => {}); // EPIPE: the exit handler reports the worker's end.
    const startup = spec.startupTimeoutSeconds;
    this.timer = setTimeout(() => this.evict(withTail(`worker startup timeout after ${startup}s (no hello frame)`, this.stderr.text())), startup * 1000);
  }

  get isIdle(): boolean {
    return this.phase === 'idle';
  }

  get isClosed(): boolean {
    return this.phase === 'closed';
  }

  /** Runs one turn on an idle worker; resolves once, after any eviction has reaped the tree. */
  async runTurn(turn: AgentTurn, signal: AbortSignal): Promise<TurnOutcome> {
    if (this.phase !== 'idle') return { state: 'failed', reason: `worker is not ready (${this.phase})` };
    clearTimeout(this.timer); // not idle while the conversation is read: the idle close must wait
    // A long-lived worker's environment is fixed at spawn: this turn's token goes in its frame.
    const prompt = await buildPromptFrame(turn, this.ctx.slug, this.spec, this.ctx.turnEnv(turn.taskId));
    await this.group.recorded; // false: the group is being killed, and the phase says so below
    // The worker may have exited meanwhile.
    if (this.phase !== 'idle') return { state: 'failed', reason: `worker is not ready (${this.phase})` };
    const line = fitFrameLine(prompt, this.spec.maxFrameBytes);
    if (line === null) {
      this.armIdleClose();
      const bytes = Buffer.byteLength(JSON.stringify({ ...prompt, history: [], artifacts: [] })) + 1;
      return { state: 'failed', reason: `prompt frame is ${bytes} bytes, over the frame limit (${this.spec.maxFrameBytes})` };
    }
    const active = new WorkerTurn(turn, this.spec);
    this.begin(active, line, signal);
    return active.outcome;
  }

  /**
   * Ends the worker. An idle worker is asked to leave (stdin closed, as the protocol says) and
   * gets the grace period to exit; a busy one is evicted, its turn failing with `reason`.
   */
  shutdown(reason: string): Promise<void> {
    if (this.phase === 'idle') void this.leave(reason);
    else this.evict(reason); // No-op when already closed: then we only wait for the reaping.
    return this.reaped;
  }

  private async leave(reason: string): Promise<void> {
    this.markClosed(reason, 'info');
    this.streams?.stdin?.end();
    await settledWithin(this.group.exited, this.spec.killGraceMs);
    await this.group.terminate(this.spec.killGraceMs);
    this.resolveReaped();
  }

  /** Sends the prompt, then arms cancel and timeout, so an abort can never overtake its prompt. */
  private begin(active: WorkerTurn, promptLine: string, signal: AbortSignal): void {
    clearTimeout(this.timer);
    this.phase = 'busy';
    this.current = active;
    this.lastUsed = Date.now();
    this.write(promptLine);
    const onAbort = () => this.abortTurn(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    this.timer = setTimeout(() => this.abortTurn(timeoutReason(this.spec.timeoutSeconds)), this.spec.timeoutSeconds * 1000);
    void active.outcome.finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
  }

  /** Cancel or timeout: ask the worker to stop; it stays only if it acknowledges in time. */
  private abortTurn(reason: string): void {
    const active = this.current;
    if (this.phase !== 'busy' || !active) return;
    this.phase = 'aborting';
    active.abortReason = reason;
    clearTimeout(this.timer);
    this.write(`${JSON.stringify({ type: 'abort', taskId: active.taskId, reason } satisfies HubFrame)}\n`);
    this.timer = setTimeout(() => this.evict(`${reason} (worker did not acknowledge the abort within ${this.spec.killGraceMs} ms)`), this.spec.killGraceMs);
  }

  /** The turn is over and the worker is fine: back to idle, with the idle clock running. */
  private endTurn(outcome: TurnOutcome): void {
    const active = this.current;
    if (!active) return;
    clearTimeout(this.timer);
    this.current = undefined;
    this.phase = 'idle';
    this.lastUsed = Date.now();
    this.armIdleClose();
    active.finish(outcome);
  }

  private armIdleClose(): void {
    clearTimeout(this.timer);
    const idle = this.spec.idleTimeoutSeconds;
    this.timer = setTimeout(() => void this.shutdown(`idle for ${idle}s`), idle * 1000);
    this.timer.unref(); // An idle worker must not keep the hub's process alive on its own.
  }

  private onStdout(chunk: Buffer): void {
    if (this.phase === 'closed') return;
    const overflow = this.current?.countStdout(chunk.length);
    if (overflow) return this.evict(overflow);
    const { lines, error } = this.reader.push(chunk);
    for (const line of lines) {
      if (this.isClosed) return;
      this.onLine(line);
    }
    if (error) this.evict(`worker protocol error: ${error}`);
  }

  private onStderr(chunk: Buffer): void {
    this.stderr.push(chunk);
    const overflow = this.current?.countStderr(chunk.length);
    if (overflow) this.evict(overflow);
  }

  private onLine(line: string): void {
    const parsed = parseWorkerFrame(line);
    if (!parsed.ok) return this.evict(`worker protocol error: ${parsed.reason}`);
    const problem = this.dispatch(parsed.frame);
    if (problem) this.evict(`worker protocol error: ${problem}`);
  }

  /** Applies one frame; returns a protocol violation, if it is one. */
  private dispatch(frame: WorkerFrame): string | undefined {
    if (this.phase === 'starting') return this.onHello(frame);
    if (frame.type === 'hello') return 'a second "hello" frame';
    const active = this.current;
    if (!active) return `unexpected "${frame.type}" frame while no turn is running`;
    if (frame.taskId !== active.taskId) return `"${frame.type}" frame for unknown task ${JSON.stringify(frame.taskId)}`;
    if (this.phase === 'aborting') {
      // Frames already in flight when the abort went out are dropped; the acknowledgement ends it.
      if (frame.type === 'aborted') this.endTurn({ state: 'failed', reason: active.abortReason ?? 'aborted' });
      return undefined;
    }
    return this.onTurnFrame(frame, active);
  }

  private onHello(frame: WorkerFrame): string | undefined {
    if (frame.type !== 'hello') return `expected a "hello" frame first, got "${frame.type}"`;
    if (frame.protocol !== WORKER_PROTOCOL) {
      return `worker speaks protocol ${JSON.stringify(frame.protocol)}, expected "${WORKER_PROTOCOL}"`;
    }
    clearTimeout(this.timer);
    this.phase = 'idle';
    this.resolveReady(null);
    return undefined;
  }

  private onTurnFrame(frame: Exclude<WorkerFrame, { type: 'hello' }>, active: WorkerTurn): string | undefined {
    switch (frame.type) {
      case 'progress':
        active.progress(frame.text, frame.metadata);
        return undefined;
      case 'artifact':
        active.artifact(frame.artifactId, frame.name, frameParts(frame), frame.append, frame.lastChunk);
        return undefined;
      case 'final':
        this.endTurn(active.completed(frameParts(frame), frame.metadata));
        return undefined;
      case 'input-required':
        this.endTurn(active.inputRequired(frameParts(frame)));
        return undefined;
      case 'message':
        this.endTurn(active.directMessage(frameParts(frame), frame.metadata));
        return undefined;
      case 'error':
        this.endTurn({ state: 'failed', reason: `worker error: ${frame.message.slice(0, 2000)}` });
        return undefined;
      case 'aborted':
        return 'an "aborted" frame with no abort pending';
    }
  }

  private async onExit(exit: GroupExit): Promise<void> {
    if (exit.kind === 'spawn-error') return this.evict(exit.reason);
    // A worker may write its final frame and exit at once: read what is in the pipe first.
    if (this.streams) await settledWithin(ended(this.streams.stdout), EXIT_DRAIN_MS);
    if (this.isClosed) return;
    const how = exitReason(exit.code, exit.signal);
    const when = this.phase === 'starting' ? 'before its hello frame' : this.phase === 'idle' ? 'while idle' : 'mid-turn';
    const cut = this.reader.partialBytes ? `, leaving a ${this.reader.partialBytes}-byte unterminated frame` : '';
    this.evict(withTail(`worker exited ${when} (${how}${cut})`, this.stderr.text()));
  }

  /** Kills the tree, then fails whatever was waiting on this worker. */
  private evict(reason: string): void {
    if (this.phase === 'closed') return;
    const wasStarting = this.phase === 'starting';
    const active = this.current;
    this.markClosed(reason, active || wasStarting ? 'warn' : 'info');
    void this.group.terminate(this.spec.killGraceMs).then(() => {
      this.resolveReaped();
      if (wasStarting) this.resolveReady(reason);
      // A cancel or timeout already decided this turn's reason; the eviction only completes it.
      active?.finish({ state: 'failed', reason: active.abortReason ?? reason });
    });
  }

  private markClosed(reason: string, level: 'info' | 'warn'): void {
    clearTimeout(this.timer);
    this.phase = 'closed';
    this.current = undefined;
    this.ctx.log(level, `rpc worker ${this.group.pid ?? '-'} for context ${this.contextId} closed: ${reason}`);
    this.onClosed(this);
  }

  private write(line: string): void {
    const stdin = this.streams?.stdin;
    if (stdin && !stdin.destroyed && stdin.writable) stdin.write(line);
  }
}

function ended(stream: GroupStreams['stdout']): Promise<void> {
  if (stream.destroyed || stream.readableEnded) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}
