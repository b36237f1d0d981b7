/**
 * Switchboard's agent-card extension announcing its timing (response window and late-result
 * grace), so a Switchboard client can warn when its own timeout is not longer than the peer's
 * window. Shared by the card builder and the client.
 */
export const TIMING_EXTENSION_URI = 'https://switchboard.dev/extensions/timing/v1';

/** An extension an agent declares in its card (`capabilities.extensions[]`, both versions). */
export interface AgentExtension {
  uri: string;
  description?: string;
  /** A client must name it in `A2A-Extensions` to send this agent a message (v1.0 §3.3.2). */
  required: boolean;
  params?: Record<string, unknown>;
}
