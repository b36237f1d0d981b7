/**
 * The in-process registry of running turns: their abort controllers and late-result grace
 * timers. Execution state is deliberately not in the database: a running child process or
 * promise cannot survive a restart, and restart recovery ends such tasks through the claim.
 */
import { setMaxListeners } from 'node:events';
import { appPart } from '../../process-singleton';

/** What stops a running turn (an AbortController, or inbound/run-turn.ts's lazy one). */
export interface TurnAbort {
  abort(reason?: unknown): void;
}

export interface Execution {
  taskId: string;
  contextId: string;
  controller: TurnAbort;
  done: Promise<void>;
  graceTimer?: NodeJS.Timeout;
  /**
   * The served agent's slug, whether it is a launcher (for the running-turns gauge), and whether
   * its turn survives a restart (a shutdown then leaves it to be resumed instead of failing it).
   */
  agent?: { slug: string; launcher: boolean; resumable?: boolean };
}

export class ExecutionRegistry {
  private readonly running = new Map<string, Execution>();
  accepting = true;
  /** Aborted at shutdown: every open call and stream detaches (and answers) at once. */
  readonly shutdown = new AbortController();

  constructor() {
    // Every open observation listens on this one signal; thousands at once are expected.
    setMaxListeners(0, this.shutdown.signal);
  }

  add(execution: Execution): void {
    this.running.set(execution.taskId, execution);
    void execution.done.finally(() => this.remove(execution.taskId, execution));
  }

  get(taskId: string): Execution | undefined {
    return this.running.get(taskId);
  }

  private remove(taskId: string, execution: Execution): void {
    if (this.running.get(taskId) !== execution) return;
    if (execution.graceTimer) clearTimeout(execution.graceTimer);
    this.running.delete(taskId);
  }

  abort(taskId: string, reason: string): void {
    this.running.get(taskId)?.controller.abort(reason);
  }

  all(): Execution[] {
    return [...this.running.values()];
  }
}

export function executions(): ExecutionRegistry {
  return appPart('executions', () => new ExecutionRegistry());
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Running turns. */
    executions: ExecutionRegistry;
  }
}
