/**
 * Switchboard's agent-card extension announcing its timing (response window and late-result
 * grace), so a Switchboard client can warn when its own timeout is not longer than the peer's
 * window. Shared by the card builder and the client.
 */
export const TIMING_EXTENSION_URI = 'https://switchboard.dev/extensions/timing/v1';
