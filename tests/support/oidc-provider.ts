/**
 * A real OpenID provider (`oidc-provider`) for the OAuth2/OIDC tests: it issues client-credentials
 * access tokens as JWTs (RS256) for the resource indicators given, and records every token request
 * (which client asked, by its Basic or form credentials) so tests can count them.
 */
import type http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors as providerErrors, type ClientMetadata, type Configuration } from 'oidc-provider';

export interface ResourceInfo {
  audience: string;
  scope: string;
  accessTokenTTL: number;
}

export interface TestProvider {
  issuer: string;
  provider: Provider;
  /** The provider's request handler, to serve on its own server or mounted under the issuer's path. */
  callback: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** Client ids of the token requests received, in order (Basic credentials; `(form)` for credentials in the body). */
  tokenRequests: string[];
}

export function clientCredentialsClient(id: string, secret: string, method: 'client_secret_basic' | 'client_secret_post' = 'client_secret_basic'): ClientMetadata {
  return { client_id: id, client_secret: secret, grant_types: ['client_credentials'], response_types: [], redirect_uris: [], token_endpoint_auth_method: method };
}

function clientOf(req: http.IncomingMessage): string {
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return basic ? decodeURIComponent(Buffer.from(basic, 'base64').toString().split(':')[0]) : '(form)';
}

/** `extra` adds to the configuration (accounts, claims, interactions for sign-in tests); its `features` are merged. */
export async function createTestProvider(
  issuer: string, clients: ClientMetadata[], resources: Record<string, ResourceInfo>, defaultResource: string, extra: Configuration = {},
): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    ...extra,
    clients,
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => defaultResource,
        getResourceServerInfo: (_ctx, resource) => {
          const info = resources[resource];
          if (!info) throw new providerErrors.InvalidTarget();
          return { ...info, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        },
      },
      ...extra.features,
    },
  });
  const handle = provider.callback();
  const tokenRequests: string[] = [];
  return {
    issuer,
    provider,
    tokenRequests,
    callback: (req, res) => {
      if (req.method === 'POST' && /\/token$/.test((req.url ?? '').split('?')[0])) tokenRequests.push(clientOf(req));
      handle(req, res);
    },
  };
}
