/**
 * What an outbound task keeps in Task.follow to be resumed after a restart: how to reach the
 * peer again (never the secrets: auth is re-resolved from the peer), the connection chosen from
 * its card, where the exchange stands, and when following started (the follow-limit clock).
 */
import { z } from 'zod';
import type { TaskRecord } from '../../db/task-records';
import type { Message } from '../../protocol/types';
import { DISPATCH_MODES } from '../../protocol/dispatch-modes';

/**
 * connect: the card is not read yet and nothing was sent (safe to start over);
 * send: the connection is known, the message not sent yet (safe to send);
 * sent: the message went out and no answer named the peer's task yet (find it before following);
 * follow: the peer's task is known: follow it; input: the peer waits for a follow-up dispatch.
 */
export const FOLLOW_PHASES = ['connect', 'send', 'sent', 'follow', 'input'] as const;
export type FollowPhase = (typeof FOLLOW_PHASES)[number];

const FollowStateSchema = z.object({
  mode: z.enum(DISPATCH_MODES),
  phase: z.enum(FOLLOW_PHASES),
  target: z.object({ peer: z.string().optional(), url: z.string().optional(), timeoutSeconds: z.number().optional() }),
  timeoutMs: z.number(),
  timeoutSource: z.enum(['dispatch', 'peer', 'default']),
  prefer: z.enum(['0.3', '1.0']).optional(),
  version: z.enum(['0.3', '1.0']).optional(),
  endpoint: z.string().optional(),
  streaming: z.boolean().optional(),
  remoteContextId: z.string().optional(),
  /**
   * The context was minted by us for this dispatch (the operator named none): any task the peer
   * holds in it came from this dispatch, so a lookup may adopt the only one.
   */
  contextMinted: z.boolean().optional(),
  /** The message this turn sends (also in the history); kept to send it after a restart. */
  message: z.custom<Message>((v) => Boolean(v && typeof v === 'object' && 'messageId' in v)),
  /**
   * A follow-up answers this interrupted status (statusKey): a snapshot still showing it is the
   * peer's view from before our answer, not a new question.
   */
  answering: z.string().optional(),
  /** Start of this turn's following (ISO): the follow limit counts from here. */
  startedAt: z.string(),
  /** A relay's dispatch reuses the peer's card read within this long (lib/peers/connect.ts). */
  maxCardAgeMs: z.number().optional(),
});
export type FollowState = z.infer<typeof FollowStateSchema>;

export function readFollowState(record: TaskRecord): FollowState | null {
  const parsed = FollowStateSchema.safeParse(record.follow);
  return parsed.success ? parsed.data : null;
}

/** Identifies a status by state and message parts (ids differ between the peer's and ours). */
export function statusKey(status: { state: string; message?: { parts: unknown[] } | null }): string {
  return JSON.stringify([status.state, status.message?.parts ?? null]);
}

/** Task.follow is a JSON column typed as a plain record. */
export function followJson(state: FollowState): Record<string, unknown> {
  return { ...state };
}
