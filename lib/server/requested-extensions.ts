/**
 * The extensions a request activates: the comma-separated URIs of `A2A-Extensions` (v1.0
 * §14.2.2) and of v0.3's `X-A2A-Extensions`. A message to an agent that requires one the
 * request does not name is refused with ExtensionSupportRequiredError (v1.0 §3.3.2).
 */
import type { ServedAgent } from '../agent-runner';
import { A2AError } from '../protocol/errors';
import type { HeaderCarrier } from '../auth/api-keys';

/** Bounds against an oversized header: more URIs than any agent declares, each URI-sized. */
const MAX_EXTENSIONS = 32;
const MAX_URI_LENGTH = 2_048;

export function requestedExtensions(req: HeaderCarrier): string[] {
  const values = [req.headers.get('a2a-extensions'), req.headers.get('x-a2a-extensions')].filter((v): v is string => v !== null);
  const uris = values.flatMap((v) => v.split(',')).map((u) => u.trim()).filter((u) => u !== '' && u.length <= MAX_URI_LENGTH);
  return [...new Set(uris)].slice(0, MAX_EXTENSIONS);
}

export function assertRequiredExtensions(agent: ServedAgent, requested: readonly string[]): void {
  const missing = (agent.extensions ?? []).filter((e) => e.required && !requested.includes(e.uri)).map((e) => e.uri);
  if (missing.length === 0) return;
  throw new A2AError('extensionSupportRequired', `agent ${agent.slug} requires ${missing.join(', ')}; name it in the A2A-Extensions header`);
}
