/**
 * Failure reasons: short, precise, and bounded, because they end up in a task's status
 * message and metadata, shown to peers and operators.
 */
import { ELLIPSIS } from '../protocol/wide-chars';

/** How much of a stderr tail goes into a reason. */
export const REASON_TAIL_CHARS = 2000;

/** The last `REASON_TAIL_CHARS` characters of `text`, trimmed, marked when cut. */
export function tailForReason(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= REASON_TAIL_CHARS) return trimmed;
  return `${ELLIPSIS}${trimmed.slice(trimmed.length - REASON_TAIL_CHARS)}`;
}

export function withTail(reason: string, tail: string): string {
  const cut = tailForReason(tail);
  return cut ? `${reason}: ${cut}` : reason;
}

export function abortReason(signal: AbortSignal): string {
  return `aborted: ${describeReason(signal.reason)}`;
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  if (typeof reason === 'string' && reason) return reason;
  return reason === undefined ? 'no reason given' : String(reason);
}

export function timeoutReason(seconds: number): string {
  return `launcher timeout after ${seconds}s`;
}

/** Why spawn() failed, from its errno. ENOENT on a missing cwd is ruled out before spawning. */
export function spawnErrorReason(argv0: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `executable not found: ${argv0}`;
    case 'EACCES':
      return `executable not permitted (EACCES): ${argv0}`;
    case 'E2BIG':
      return 'argument list too long (E2BIG); pass a large prompt with stdin: "prompt" instead of {prompt}';
    default:
      return `could not start ${argv0}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function exitReason(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by signal ${signal}` : `exit code ${code}`;
}
