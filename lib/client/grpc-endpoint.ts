/**
 * How a peer's gRPC interface is written where endpoints are kept (follow state, the peer row,
 * the dashboard): `grpc://host:port/<tenant>`. The scheme says which binding to speak and the
 * path carries the card's tenant, so neither needs a column of its own.
 */
const SCHEME = 'grpc://';

export interface GrpcEndpoint {
  /** The grpc-js target: `host:port`. */
  target: string;
  tenant: string;
}

/** A grpc-js target from a card's gRPC `url`: `host:port` as is, `dns:///host:port`, or a URL naming one (its port, or the scheme's). */
function targetOf(cardUrl: string): string {
  if (cardUrl.startsWith('dns:')) return cardUrl.replace(/^dns:(\/\/\/)?/, '');
  if (!cardUrl.includes('://')) return cardUrl;
  const url = new URL(cardUrl);
  return `${url.hostname}:${url.port || (url.protocol === 'http:' ? '80' : '443')}`;
}

/** The endpoint string for a card's gRPC interface. */
export function grpcEndpoint(cardUrl: string, tenant: string | undefined): string {
  const target = targetOf(cardUrl);
  return `${SCHEME}${target}${tenant ? `/${encodeURIComponent(tenant)}` : ''}`;
}

export function parseGrpcEndpoint(endpoint: string): GrpcEndpoint | null {
  if (!endpoint.startsWith(SCHEME)) return null;
  const rest = endpoint.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? { target: rest, tenant: '' } : { target: rest.slice(0, slash), tenant: decodeURIComponent(rest.slice(slash + 1)) };
}

/** Which origin a gRPC endpoint is for the credentials rule (plaintext: `http://host:port`). */
export function grpcCredentialOrigin(endpoint: string): string | null {
  const parsed = parseGrpcEndpoint(endpoint);
  return parsed ? `http://${parsed.target}` : null;
}
