/**
 * The hub's side of one turn on an rpc worker: forwards progress and artifact chunks in
 * order, counts the turn's output against its limits, and settles the outcome exactly once,
 * after every chunk has been handed to the engine.
 */
import type { AgentTurn, TurnOutcome } from '../../agent-runner';
import type { Part } from '../../protocol/types';
import { EmitQueue } from '../emit-queue';
import type { RpcLauncherSpec } from '../spec';

export class WorkerTurn {
  readonly outcome: Promise<TurnOutcome>;
  /** Set when a cancel or timeout started the abort; it is the turn's reason whatever follows. */
  abortReason?: string;
  private resolve!: (outcome: TurnOutcome) => void;
  private settled = false;
  private readonly queue = new EmitQueue();
  private stdoutBytes = 0;
  private stderrBytes = 0;
  private artifactChunks = 0;

  constructor(
    private readonly turn: AgentTurn,
    private readonly spec: Pick<RpcLauncherSpec, 'maxOutputBytes' | 'maxReplyBytes'>,
  ) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve));
  }

  get taskId(): string {
    return this.turn.taskId;
  }

  /** Returns a failure reason once the worker's stdout for this turn is over the limit. */
  countStdout(bytes: number): string | undefined {
    this.stdoutBytes += bytes;
    return this.overLimit('stdout', this.stdoutBytes);
  }

  countStderr(bytes: number): string | undefined {
    this.stderrBytes += bytes;
    return this.overLimit('stderr', this.stderrBytes);
  }

  private overLimit(stream: string, bytes: number): string | undefined {
    const limit = this.spec.maxOutputBytes;
    return bytes > limit ? `output limit exceeded: worker ${stream} exceeded ${limit} bytes in one turn` : undefined;
  }

  progress(text: string, metadata: Record<string, unknown> | undefined): void {
    this.queue.push(() => this.turn.emit.progress(text, metadata));
  }

  artifact(artifactId: string, name: string | undefined, parts: Part[], append?: boolean, lastChunk?: boolean): void {
    this.artifactChunks++;
    const artifact = name === undefined ? { artifactId, parts } : { artifactId, name, parts };
    this.queue.push(() => this.turn.emit.artifact({ artifact, append, lastChunk }));
  }

  /** A final frame: its parts are the reply; with none, the streamed artifacts are. */
  completed(parts: Part[], metadata: Record<string, unknown> | undefined): TurnOutcome {
    if (parts.length === 0 && this.artifactChunks === 0) return { state: 'failed', reason: 'empty reply' };
    return this.tooLarge(parts) ?? { state: 'completed', ...(parts.length ? { parts } : {}), ...(metadata ? { metadata } : {}) };
  }

  /** A message frame: the caller gets this Message instead of a task (artifacts cannot go with it). */
  directMessage(parts: Part[], metadata: Record<string, unknown> | undefined): TurnOutcome {
    if (parts.length === 0) return { state: 'failed', reason: 'message frame without content' };
    if (this.artifactChunks > 0) return { state: 'failed', reason: 'message frame after artifact chunks (a direct message carries no artifacts; send "final")' };
    return this.tooLarge(parts) ?? { state: 'message', parts, ...(metadata ? { metadata } : {}) };
  }

  private tooLarge(parts: Part[]): TurnOutcome | undefined {
    const bytes = partsBytes(parts);
    if (bytes <= this.spec.maxReplyBytes) return undefined;
    return { state: 'failed', reason: `output limit exceeded: reply is ${bytes} bytes (limit ${this.spec.maxReplyBytes})` };
  }

  inputRequired(parts: Part[]): TurnOutcome {
    if (parts.length === 0) return { state: 'failed', reason: 'input-required frame without a question' };
    return { state: 'input-required', parts };
  }

  /** Settles the outcome once every queued chunk is delivered; later calls are ignored. */
  finish(outcome: TurnOutcome): void {
    if (this.settled) return;
    this.settled = true;
    void this.queue.drained().then((emitFailure) => {
      this.resolve(emitFailure && outcome.state === 'completed' ? { state: 'failed', reason: emitFailure } : outcome);
    });
  }
}

/** Text counts as UTF-8 bytes; files and data as their JSON, which is how they travel. */
function partsBytes(parts: Part[]): number {
  return parts.reduce((sum, part) => sum + Buffer.byteLength(part.kind === 'text' ? part.text : JSON.stringify(part)), 0);
}
