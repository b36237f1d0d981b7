/**
 * The in-process registry of outbound tasks being worked on (sent or followed). A part of the
 * app (lib/process-singleton.ts) because Next bundles route handlers separately: the dispatch
 * route, the cancel route and the start-up resume must all see the same followers; the app's
 * stop stops them all. One follower per task.
 */
import { appPart } from '../../process-singleton';
import { leaseWork } from '../core/membership';

interface Follower {
  controller: AbortController;
  done: Promise<void>;
}

export class FollowerRegistry {
  private readonly running = new Map<string, Follower>();

  /** Starts `run` unless a follower for this task is already running; false then. */
  start(taskId: string, run: (signal: AbortSignal) => Promise<void>): boolean {
    if (this.running.has(taskId)) return false;
    const controller = new AbortController();
    const follower: Follower = { controller, done: Promise.resolve() };
    this.running.set(taskId, follower);
    follower.done = (async () => {
      try {
        await run(controller.signal);
      } finally {
        if (this.running.get(taskId) === follower) this.running.delete(taskId);
      }
    })();
    leaseWork(taskId, follower.done); // several instances: this one follows it (lib/db/membership.ts)
    return true;
  }

  has(taskId: string): boolean {
    return this.running.has(taskId);
  }

  /** Aborts a follower and waits until it has stopped writing. */
  async stop(taskId: string, reason: string): Promise<void> {
    const follower = this.running.get(taskId);
    if (!follower) return;
    follower.controller.abort(reason);
    await follower.done.catch(() => undefined);
  }

  async stopAll(reason: string): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id, reason)));
  }

  /** Resolves when a follower finishes (tests, shutdown); immediately when none runs. */
  async settled(taskId: string): Promise<void> {
    await this.running.get(taskId)?.done.catch(() => undefined);
  }

  size(): number {
    return this.running.size;
  }
}

export function outboundFollowers(): FollowerRegistry {
  return appPart('followers', () => new FollowerRegistry());
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Outbound tasks being sent or followed. */
    followers: FollowerRegistry;
  }
}
