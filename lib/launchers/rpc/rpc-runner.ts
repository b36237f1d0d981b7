/**
 * The `rpc` launcher: a pool of long-lived workers, one per (agent, contextId), each serving
 * that context's turns one at a time (docs/launchers.md, docs/worker-protocol.md).
 */
import { TurnTracker } from '../turn-tracker';
import type { AgentRunner, AgentTurn, TurnOutcome } from '../../agent-runner';
import { linkedSignal, untilAborted } from '../../util/abortable';
import { KeyedLock } from '../keyed-lock';
import { directoryProblem, type LauncherContext } from '../launcher-context';
import { abortReason } from '../reasons';
import type { RpcLauncherSpec } from '../spec';
import { RpcWorker } from './rpc-worker';

export class RpcLauncherRunner implements AgentRunner {
  /** A worker may answer with a `message` frame. */
  readonly mayReplyWithMessage = true;
  /** The live worker of each context. */
  private readonly workers = new Map<string, RpcWorker>();
  /** Every worker whose tree is not reaped yet, including those already closing. */
  private readonly unreaped = new Set<RpcWorker>();
  private readonly locks = new KeyedLock();
  /** Contexts with a turn in hand: their workers are never picked to make room. */
  private readonly held = new Set<string>();
  private readonly turns = new TurnTracker();

  constructor(
    private readonly spec: RpcLauncherSpec,
    private readonly ctx: LauncherContext,
  ) {}

  runTurn(turn: AgentTurn): Promise<TurnOutcome> {
    return this.turns.run(() => this.guardedTurn(turn));
  }

  /** Aborts running turns, ends every worker (tree reaped) and waits for all of it. */
  async close(): Promise<void> {
    this.turns.close();
    await Promise.allSettled([...this.unreaped].map((w) => w.shutdown('launcher closed')));
    await this.turns.settled();
  }

  private async guardedTurn(turn: AgentTurn): Promise<TurnOutcome> {
    const link = linkedSignal([turn.signal, this.turns.closing.signal]);
    const release = await this.locks.acquire(turn.contextId, link.signal);
    if (!release) {
      link.dispose();
      return { state: 'failed', reason: abortReason(link.signal) };
    }
    this.held.add(turn.contextId);
    try {
      return await this.runOnWorker(turn, link.signal);
    } finally {
      this.held.delete(turn.contextId);
      release();
      link.dispose();
    }
  }

  private async runOnWorker(turn: AgentTurn, signal: AbortSignal): Promise<TurnOutcome> {
    const worker = await this.workerFor(turn.contextId);
    if (typeof worker === 'string') return { state: 'failed', reason: worker };
    const ready = await untilAborted(worker.ready, signal);
    if (ready.aborted || signal.aborted) {
      await worker.shutdown(abortReason(signal));
      return { state: 'failed', reason: abortReason(signal) };
    }
    if (ready.value) return { state: 'failed', reason: ready.value };
    return worker.runTurn(turn, signal);
  }

  /** The context's live worker, a new one, or why none can be had. */
  private async workerFor(contextId: string): Promise<RpcWorker | string> {
    const existing = this.workers.get(contextId);
    if (existing && !existing.isClosed) return existing;
    const cwdProblem = await directoryProblem(this.ctx.cwd);
    if (cwdProblem) return cwdProblem;
    if (this.workers.size >= this.spec.maxWorkers && !(await this.makeRoom())) {
      return `worker limit reached: all ${this.spec.maxWorkers} workers are busy`;
    }
    const worker = new RpcWorker(this.spec, this.ctx, contextId, (closed) => this.forget(closed));
    this.workers.set(contextId, worker);
    this.unreaped.add(worker);
    void worker.reaped.then(() => this.unreaped.delete(worker));
    return worker;
  }

  /** Closes the least recently used idle worker; false if every worker is in use. */
  private async makeRoom(): Promise<boolean> {
    const idle = [...this.workers.values()].filter((w) => w.isIdle && !this.held.has(w.contextId));
    if (idle.length === 0) return false;
    const oldest = idle.reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
    await oldest.shutdown(`making room: at most ${this.spec.maxWorkers} workers`);
    return true;
  }

  private forget(worker: RpcWorker): void {
    if (this.workers.get(worker.contextId) === worker) this.workers.delete(worker.contextId);
  }
}
