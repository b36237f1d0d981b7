import { describe, expect, it } from 'vitest';
import { declaredTokenUrl, tokenUrlFor } from './oauth2';
import type { PeerRecord } from '../db/peer-repo';

const flow = (tokenUrl: string) => ({ flows: { clientCredentials: { tokenUrl, scopes: {} } } });

function peer(card: Record<string, unknown> | null, tokenUrl?: string): PeerRecord {
  return { name: 'p', url: 'https://agent.example/a2a', oauth2: { clientId: 'c', authMethod: 'client_secret_basic', ...(tokenUrl ? { tokenUrl } : {}) }, card } as PeerRecord;
}

describe('the OAuth2 token URL of a peer', () => {
  it('reads the clientCredentials flow of a v1.0 and of a v0.3 card, and nothing else', () => {
    expect(declaredTokenUrl({ securitySchemes: { o: { oauth2SecurityScheme: flow('https://a.example/token') } } })).toBe('https://a.example/token');
    expect(declaredTokenUrl({ securitySchemes: { o: { type: 'oauth2', ...flow('https://b.example/token') } } })).toBe('https://b.example/token');
    expect(declaredTokenUrl({ securitySchemes: { o: { type: 'oauth2', flows: { authorizationCode: { tokenUrl: 'https://c.example/token' } } } } })).toBeNull();
    expect(declaredTokenUrl({ securitySchemes: { b: { httpAuthSecurityScheme: { scheme: 'bearer' } } } })).toBeNull();
    expect(declaredTokenUrl(null)).toBeNull();
  });

  it("uses the configured URL first, the card's only on an allowed origin", () => {
    const origins = ['https://agent.example', 'https://api.example'];
    const card = (url: string) => ({ securitySchemes: { o: { oauth2SecurityScheme: flow(url) } } });
    expect(tokenUrlFor(peer(card('https://evil.example/token'), 'https://idp.example/token'), origins)).toBe('https://idp.example/token');
    expect(tokenUrlFor(peer(card('https://agent.example/oauth/token')), origins)).toBe('https://agent.example/oauth/token');
    expect(tokenUrlFor(peer(card('https://api.example/token')), origins)).toBe('https://api.example/token');
    expect(() => tokenUrlFor(peer(card('https://evil.example/token')), origins)).toThrow(/is on another origin than the peer's \(https:\/\/agent\.example\); the client secret is not sent there/);
    expect(() => tokenUrlFor(peer({}), origins)).toThrow(/declares no OAuth2 clientCredentials flow; set auth.tokenUrl/);
  });
});
