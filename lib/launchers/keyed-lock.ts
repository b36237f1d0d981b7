/**
 * Serialises work per key (a context id): one agent session or rpc worker must not see two
 * turns at once. Waiting ends early if the caller's signal aborts.
 */
import { untilAborted } from '../util/abortable';

export type Release = () => void;

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Resolves with a release function once the key is ours, or null if `signal` aborted first. */
  async acquire(key: string, signal: AbortSignal): Promise<Release | null> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: Release;
    const mine = new Promise<void>((resolve) => (release = resolve));
    // Waiters queue behind `mine` even if we give up early: releasing it then keeps the order.
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    const waited = await untilAborted(previous, signal);
    if (waited.aborted) {
      release();
      return null;
    }
    return release;
  }
}
