/**
 * Which binding an endpoint is spoken with, read from the endpoint string alone, so the follow
 * state, the peer row and restart resume need no column of their own (decision 194):
 * `grpc://host:port/<tenant>` is gRPC (grpc-endpoint.ts), `rest+http(s)://…` is HTTP+JSON (the
 * card's interface URL, the tenant as its last path segment), anything else is JSON-RPC.
 */
import { grpcCredentialOrigin, parseGrpcEndpoint } from './grpc-endpoint';
import { isHttpUrl } from './normalize-url';

export type Binding = 'JSONRPC' | 'GRPC' | 'HTTP+JSON';

const REST_PREFIX = 'rest+';

/** The endpoint string for a card's HTTP+JSON interface (absolute URL; §11 puts a tenant before the resource path). */
export function restEndpoint(absoluteUrl: string, tenant: string | undefined): string {
  const base = absoluteUrl.replace(/\/+$/, '');
  return `${REST_PREFIX}${base}${tenant ? `/${encodeURIComponent(tenant)}` : ''}`;
}

/** The HTTP base the HTTP+JSON paths go under (`{base}/message:send`), or null for another binding. */
export function restBaseUrl(endpoint: string): string | null {
  return endpoint.startsWith(`${REST_PREFIX}http://`) || endpoint.startsWith(`${REST_PREFIX}https://`) ? endpoint.slice(REST_PREFIX.length) : null;
}

/** The one place that tells the bindings apart. */
export function bindingOf(endpoint: string): Binding {
  if (parseGrpcEndpoint(endpoint)) return 'GRPC';
  return restBaseUrl(endpoint) ? 'HTTP+JSON' : 'JSONRPC';
}

/** gRPC and HTTP+JSON interfaces are spoken in A2A 1.0 only (the card chooser takes no other). */
export const BINDING_ENDPOINT_VERSION = '1.0';

/**
 * A gRPC or HTTP+JSON endpoint as stored (a task's peer URL once connected, a peer's endpoint),
 * well formed: `grpc://host:port[/tenant]`, `rest+http(s)://<absolute URL>`. Plain http(s) URLs
 * (JSON-RPC endpoints, card URLs) are not: they are URLs to discover a card from.
 */
export function isBindingEndpoint(value: string): boolean {
  const grpc = parseGrpcEndpoint(value);
  if (grpc) return /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(grpc.target);
  const rest = restBaseUrl(value);
  return rest !== null && isHttpUrl(rest);
}

/**
 * A dispatch target written as a URL rather than a peer name (the CLI's `dispatch <peer|url>`,
 * the MCP tool's `target`): an http(s) URL or a stored gRPC / HTTP+JSON endpoint. Only the scheme
 * is looked at (a peer name has no colon): a malformed one still goes as `url`, so the server
 * refuses it with the reason instead of looking for a peer of that name.
 */
export function isUrlTarget(value: string): boolean {
  return /^(https?|grpc|rest\+https?):\/\//i.test(value);
}

/** The origin an endpoint counts as for the credentials rule (credentialOrigins); throws on a malformed URL. */
export function credentialOriginOf(endpoint: string): string {
  return grpcCredentialOrigin(endpoint) ?? new URL(restBaseUrl(endpoint) ?? endpoint).origin;
}
