/**
 * One supervised run of a child process: bounded capture of stdout and stderr, a deadline, an
 * abort signal, and reaping of the whole tree on every path. It reports what happened; turning
 * that into a TurnOutcome is the launcher's job.
 */
import { settledWithin } from '../util/abortable';
import { BoundedCapture, TailBuffer } from './byte-buffers';
import type { LaunchRecorder } from './group-ledger';
import type { LauncherLog } from './log';
import { ProcessGroup, type GroupStreams } from './process-group';
import { abortReason, timeoutReason } from './reasons';

/** Bytes of stderr kept for error messages (the reason itself shows at most ~2000 chars). */
export const STDERR_TAIL_BYTES = 8 * 1024;
/**
 * After the tree is reaped, its pipes reach EOF at once; only a process that escaped the
 * session can still hold them. Past this we stop waiting and close our ends.
 */
const DRAIN_MS = 1000;

export interface ChildRunOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed; without it stdin is /dev/null. */
  stdinText?: string;
  maxOutputBytes: number;
  timeoutSeconds: number;
  killGraceMs: number;
  signal: AbortSignal;
  /** Sees every stdout chunk that fits in the capture, in order. */
  onStdout?: (chunk: Buffer) => void;
  log: LauncherLog;
  /** Records the child's group durably before it is given its input (group-ledger.ts). */
  record?: LaunchRecorder;
}

export type ChildRunResult =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stdout: Buffer; stderrTail: string }
  | { kind: 'spawn-error'; reason: string }
  /** Ended by us: output limit, timeout or abort. */
  | { kind: 'stopped'; reason: string; aborted: boolean; stderrTail: string };

export async function runChild(options: ChildRunOptions): Promise<ChildRunResult> {
  if (options.signal.aborted) return { kind: 'stopped', reason: abortReason(options.signal), aborted: true, stderrTail: '' };
  const group = ProcessGroup.spawn(options.argv, { cwd: options.cwd, env: options.env, stdin: options.stdinText === undefined ? 'ignore' : 'pipe', record: options.record, killGraceMs: options.killGraceMs }, options.log);
  const streams = group.streams;
  if (!streams) return spawnFailure(await group.exited);
  if (!(await group.recorded)) return spawnFailure(await group.exited);
  const supervisor = new Supervisor(options, streams);
  try {
    const first = await Promise.race([group.exited, supervisor.stopped.then(() => null)]);
    if (first?.kind === 'spawn-error') return first;
    // Once the leader is gone only an output overflow can still end the run: a deadline or an
    // abort that falls while we drain must not turn a finished run into a failed one.
    if (first) supervisor.disarm();
    await group.terminate(options.killGraceMs);
    await supervisor.drain();
    return supervisor.result(first ?? undefined);
  } finally {
    supervisor.disarm();
    await group.terminate(options.killGraceMs);
  }
}

function spawnFailure(exit: Awaited<ProcessGroup['exited']>): ChildRunResult {
  return exit.kind === 'spawn-error' ? exit : { kind: 'spawn-error', reason: 'child has no pipes' };
}

/** Watches one child's streams, deadline and abort signal; the first stop reason wins. */
class Supervisor {
  readonly stopped: Promise<string>;
  private stopReason?: string;
  private abortedBySignal = false;
  private resolveStop!: (reason: string) => void;
  private readonly stdout: BoundedCapture;
  private readonly stderr: TailBuffer;
  private readonly timer: NodeJS.Timeout;
  private readonly ended: Promise<unknown>;
  private readonly onAbort = () => {
    this.abortedBySignal = true;
    this.stop(abortReason(this.options.signal));
  };

  constructor(
    private readonly options: ChildRunOptions,
    private readonly streams: GroupStreams,
  ) {
    this.stopped = new Promise((resolve) => (this.resolveStop = resolve));
    this.stdout = new BoundedCapture(options.maxOutputBytes);
    this.stderr = new TailBuffer(STDERR_TAIL_BYTES);
    this.timer = setTimeout(() => this.stop(timeoutReason(options.timeoutSeconds)), options.timeoutSeconds * 1000);
    options.signal.addEventListener('abort', this.onAbort, { once: true });
    streams.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    streams.stderr.on('data', (chunk: Buffer) => this.onStderr(chunk));
    this.ended = Promise.all([streamEnded(streams.stdout), streamEnded(streams.stderr)]);
    this.writeStdin();
  }

  private writeStdin(): void {
    const stdin = this.streams.stdin;
    if (!stdin) return;
    stdin.on('error', () => {}); // EPIPE: the child did not read its input; its exit tells the story.
    stdin.end(this.options.stdinText ?? '');
  }

  private onStdout(chunk: Buffer): void {
    if (this.stopReason) return;
    if (!this.stdout.push(chunk)) {
      this.stop(`output limit exceeded: stdout exceeded ${this.options.maxOutputBytes} bytes`);
      return;
    }
    this.options.onStdout?.(chunk);
  }

  private onStderr(chunk: Buffer): void {
    this.stderr.push(chunk);
    if (this.stderr.bytesSeen > this.options.maxOutputBytes && !this.stopReason) {
      this.stop(`output limit exceeded: stderr exceeded ${this.options.maxOutputBytes} bytes`);
    }
  }

  private stop(reason: string): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    // Stop reading at once: memory stays bounded while the tree is being killed.
    if (reason.startsWith('output limit')) this.closePipes();
    this.resolveStop(reason);
  }

  /** Waits (bounded) for both pipes to reach EOF so no output written before exit is lost. */
  async drain(): Promise<void> {
    const done = await settledWithin(this.ended, DRAIN_MS);
    if (!done) {
      this.options.log('warn', 'child output pipes still open after the process group was reaped; closing them');
      this.closePipes();
    }
  }

  result(exit: { code: number | null; signal: NodeJS.Signals | null } | undefined): ChildRunResult {
    const stderrTail = this.stderr.text();
    // Output read after the leader's exit can still overflow, so the stop reason is checked last.
    if (this.stopReason) return { kind: 'stopped', reason: this.stopReason, aborted: this.abortedBySignal, stderrTail };
    if (!exit) throw new Error('child neither exited nor was stopped');
    return { kind: 'exited', code: exit.code, signal: exit.signal, stdout: this.stdout.toBuffer(), stderrTail };
  }

  private closePipes(): void {
    this.streams.stdout.destroy();
    this.streams.stderr.destroy();
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.options.signal.removeEventListener('abort', this.onAbort);
  }
}

function streamEnded(stream: GroupStreams['stdout']): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.readableEnded) return resolve();
    stream.once('close', () => resolve());
  });
}
