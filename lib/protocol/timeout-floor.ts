/**
 * The client timeout floor. A client timeout T below it is allowed (tests scale time
 * down) but warned about wherever one is set: the dispatch form, `switchboard dispatch
 * --timeout`, the dispatch API's answer and a peer's timeout. 10 s is two of Hermes's 5 s
 * keepalive intervals: a stream read with a shorter idle timeout is cut between keepalives, and
 * Hermes turns the disconnect into FAILED `[client disconnected]`, losing the result. Client-safe.
 */
export const CLIENT_TIMEOUT_FLOOR_SECONDS = 10;

/** The warning for a timeout below the floor, or null. */
export function timeoutFloorWarning(seconds: number | null | undefined, what = 'client timeout'): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds >= CLIENT_TIMEOUT_FLOOR_SECONDS) return null;
  return (
    `${what} ${seconds} s is below the ${CLIENT_TIMEOUT_FLOOR_SECONDS} s floor: a peer that sends keepalives every 5 s (Hermes) ` +
    'can have its stream cut between them, and may fail its task when we disconnect'
  );
}

/** A form field's hint: the floor warning when the value typed is below it, else `fallback`. */
export function timeoutHint(value: string, fallback: string): string {
  const seconds = value.trim() === '' ? null : Number(value);
  return timeoutFloorWarning(seconds, 'a timeout of') ?? fallback;
}
