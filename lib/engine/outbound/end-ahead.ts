/**
 * A peer's end, offered to whoever follows the outbound task's log before the end is committed
 * (decision 370): a relay's fresh turn takes it, when it has passed on everything the task
 * committed before, and claims its caller's end in the same event-loop turn, so both ends go in
 * one group commit instead of one after the other (the caller's only after the child's had
 * committed, been published and observed). Nothing is taken that the log will not hold: the
 * end's claim is written right after the offer, with exactly these chunks.
 */
import { appPart } from '../../process-singleton';
import type { Message, ArtifactChunk, TaskState } from '../../protocol/types';

export interface EndAhead {
  /** The end as its status event will record it (the row's state, status message and reason). */
  end: { id: string; state: TaskState; statusMessage: Message | null; endReason: string | null };
  /** The chunks committed with the end, before it. */
  chunks: ArtifactChunk[];
  /** The task's last seq committed before the end: a taker must have passed on everything through it. */
  afterSeq: number;
}

/** True when the end was taken (the taker ends its own task with it, without waiting for the log). */
export type EndTaker = (ahead: EndAhead) => boolean;

export class EndOffers {
  private readonly takers = new Map<string, EndTaker>();

  /** One taker per task; the returned function withdraws it. */
  watch(taskId: string, taker: EndTaker): () => void {
    this.takers.set(taskId, taker);
    return () => {
      if (this.takers.get(taskId) === taker) this.takers.delete(taskId);
    };
  }

  /** Synchronous: a taker claims its own end in this same event-loop turn (the same group commit). */
  offer(taskId: string, ahead: EndAhead): void {
    const taker = this.takers.get(taskId);
    if (taker?.(ahead)) this.takers.delete(taskId);
  }
}

/** The app's (route bundles share it, as they share the followers: follow-registry.ts). */
export function endOffers(): EndOffers {
  return appPart('outboundEndOffers', () => new EndOffers());
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Takers of outbound ends before they commit (a relay's fresh turn). */
    outboundEndOffers: EndOffers;
  }
}
