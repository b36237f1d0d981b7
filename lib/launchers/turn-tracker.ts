/**
 * What both launchers share about their running turns: refuse new turns once closing, and let
 * close() wait for every turn still running (each kills its own tree when `closing` aborts).
 */
import type { TurnOutcome } from '../agent-runner';

export class TurnTracker {
  readonly closing = new AbortController();
  private readonly active = new Set<Promise<TurnOutcome>>();

  run(turn: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
    if (this.closing.signal.aborted) return Promise.resolve({ state: 'failed', reason: 'launcher is closed' });
    const running = turn();
    this.active.add(running);
    void running.finally(() => this.active.delete(running));
    return running;
  }

  close(): void {
    this.closing.abort('launcher closed');
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.active]);
  }
}
