/**
 * The client timeout T: one precedence rule, used by every outbound call path.
 * Per-dispatch override > the peer's timeout > SWITCHBOARD_CLIENT_TIMEOUT. No value here is a
 * timeout of its own: the default always comes from settings.
 */
import { ClientError } from '../protocol/client-error';
import { z } from 'zod';
import { timeoutFloorWarning } from '../protocol/timeout-floor';

/** Upper bound for a per-dispatch override: 24 h (a validation limit, not a default). */
export const MAX_TIMEOUT_OVERRIDE_SECONDS = 86_400;

export const TIMEOUT_OVERRIDE_MESSAGE = `must be a positive number of seconds, at most ${MAX_TIMEOUT_OVERRIDE_SECONDS} (24 h)`;

/** zod schema for a timeout override in seconds; fractions are allowed (tests scale time down). */
export const TimeoutSecondsSchema = z
  .number({ message: TIMEOUT_OVERRIDE_MESSAGE })
  .refine((v) => Number.isFinite(v) && v > 0 && v <= MAX_TIMEOUT_OVERRIDE_SECONDS, { message: TIMEOUT_OVERRIDE_MESSAGE });

export type TimeoutSource = 'dispatch' | 'peer' | 'default';

export interface ResolvedTimeout {
  ms: number;
  source: TimeoutSource;
}

/** Throws a ClientError naming timeoutSeconds unless `value` is a valid override (undefined = none given). */
export function validateTimeoutOverride(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = TimeoutSecondsSchema.safeParse(value);
  if (!parsed.success) throw new ClientError(400, 'invalid_request', `timeoutSeconds: ${TIMEOUT_OVERRIDE_MESSAGE} (got ${JSON.stringify(value)})`, 'timeoutSeconds');
  return parsed.data;
}

export function pickTimeout(input: { overrideSeconds?: number; peerTimeoutSeconds?: number | null; defaultMs: number }): ResolvedTimeout {
  const override = validateTimeoutOverride(input.overrideSeconds);
  if (override !== undefined) return { ms: Math.round(override * 1000), source: 'dispatch' };
  if (input.peerTimeoutSeconds !== undefined && input.peerTimeoutSeconds !== null && input.peerTimeoutSeconds > 0) {
    return { ms: Math.round(input.peerTimeoutSeconds * 1000), source: 'peer' };
  }
  return { ms: input.defaultMs, source: 'default' };
}

/** A peer as the API answers it: with a warning when its timeout is below the floor. */
export function peerAnswer<P extends { timeoutSeconds?: number | null }>(peer: P): { peer: P; warnings?: string[] } {
  const warning = timeoutFloorWarning(peer.timeoutSeconds, "the peer's timeout");
  return warning ? { peer, warnings: [warning] } : { peer };
}
