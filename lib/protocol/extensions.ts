/**
 * Switchboard's agent-card extension announcing its timing (response window and late-result
 * grace), so a Switchboard client can warn when its own timeout is not longer than the peer's
 * window. Shared by the card builder and the client.
 */
export const TIMING_EXTENSION_URI = 'https://switchboard.dev/extensions/timing/v1';

/**
 * Switchboard's generation extension (A2A v1.1's `generation`, offered to v1.0 and v0.3 clients):
 * every task carries `metadata.switchboard.generation` (its event log's last seq) and every
 * streamed event its own; a subscription resumes after one (`Last-Event-ID`, or
 * `metadata.switchboard.afterGeneration`) without a gap or a duplicate.
 */
export const GENERATION_EXTENSION_URI = 'https://switchboard.dev/extensions/generation/v1';

/** An extension an agent declares in its card (`capabilities.extensions[]`, both versions). */
export interface AgentExtension {
  uri: string;
  description?: string;
  /** A client must name it in `A2A-Extensions` to send this agent a message (v1.0 §3.3.2). */
  required: boolean;
  params?: Record<string, unknown>;
}
