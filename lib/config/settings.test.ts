import { describe, expect, it } from 'vitest';
import { loadSettings } from './settings';

describe('SWITCHBOARD_OUTBOX_RETENTION', () => {
  it('defaults to 7 days and takes seconds', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).outboxRetentionMs).toBe(7 * 86_400_000);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_OUTBOX_RETENTION: '1.5' }).outboxRetentionMs).toBe(1_500);
  });

  it('refuses zero, words and more than a year, naming the setting', () => {
    for (const bad of ['0', 'week', String(367 * 86_400)]) expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_OUTBOX_RETENTION: bad })).toThrow(/SWITCHBOARD_OUTBOX_RETENTION: SWITCHBOARD_OUTBOX_RETENTION must be a positive number of seconds/);
  });
});

describe('SWITCHBOARD_GRPC_PORT', () => {
  it('is unset by default (gRPC not served) and takes a port', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).grpcPort).toBeUndefined();
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_GRPC_PORT: '50051' }).grpcPort).toBe(50051);
  });

  it('refuses words, zero, more than 65535 and the HTTP port, naming the setting', () => {
    for (const bad of ['grpc', '0', '70000']) expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_GRPC_PORT: bad })).toThrow(/SWITCHBOARD_GRPC_PORT: SWITCHBOARD_GRPC_PORT must be/);
    expect(() => loadSettings({ NODE_ENV: 'test', PORT: '4000', SWITCHBOARD_GRPC_PORT: '4000' })).toThrow(/SWITCHBOARD_GRPC_PORT: must differ from PORT \(4000\)/);
  });
});

describe('SWITCHBOARD_GRPC_PUBLIC_ADDRESS', () => {
  it('takes host:port (names and IPv6 literals) and refuses URLs, naming the setting', () => {
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_GRPC_PUBLIC_ADDRESS: 'grpc.example.com:443' }).grpcPublicAddress).toBe('grpc.example.com:443');
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_GRPC_PUBLIC_ADDRESS: '[2001:db8::1]:50051' }).grpcPublicAddress).toBe('[2001:db8::1]:50051');
    for (const bad of ['https://grpc.example.com', 'grpc.example.com']) expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_GRPC_PUBLIC_ADDRESS: bad })).toThrow(/SWITCHBOARD_GRPC_PUBLIC_ADDRESS: SWITCHBOARD_GRPC_PUBLIC_ADDRESS must be host:port/);
  });
});

describe('SWITCHBOARD_TASK_RETENTION', () => {
  it('is unset by default (tasks are kept forever) and takes seconds', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).taskRetentionMs).toBeUndefined();
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: '' }).taskRetentionMs).toBeUndefined();
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: '2592000' }).taskRetentionMs).toBe(30 * 86_400_000);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: '0.5' }).taskRetentionMs).toBe(500);
  });

  it('refuses zero, negatives, words and more than ten years, naming the setting', () => {
    for (const bad of ['0', '-5', '30d', String(3661 * 86_400)]) {
      expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: bad })).toThrow(/SWITCHBOARD_TASK_RETENTION: SWITCHBOARD_TASK_RETENTION must be a positive number of seconds \(at most 316224000\)/);
    }
  });
});

describe('SWITCHBOARD_SSE_KEEPALIVE (every stream hears from us at least every 4 s)', () => {
  it('defaults to 2 s and may be lowered', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).sseKeepaliveMs).toBe(2_000);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_SSE_KEEPALIVE: '0.5' }).sseKeepaliveMs).toBe(500);
  });

  it('refuses more than 4 s, naming the setting', () => {
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_SSE_KEEPALIVE: '5' })).toThrow(/SWITCHBOARD_SSE_KEEPALIVE must be a positive number of seconds \(at most 4\)/);
  });
});

describe('card signing keys', () => {
  it('default: a generated key and no previous keys; a list of previous key files is split on commas', () => {
    const defaults = loadSettings({ NODE_ENV: 'test' });
    expect(defaults.cardSigningKeyFile).toBeUndefined();
    expect(defaults.cardPublishedKeyFiles).toEqual([]);
    const set = loadSettings({ NODE_ENV: 'test', SWITCHBOARD_CARD_SIGNING_KEY: '/keys/new.pem', SWITCHBOARD_CARD_PUBLISHED_KEYS: ' /keys/old.pem, ,/keys/older.jwk ' });
    expect(set.cardSigningKeyFile).toBe('/keys/new.pem');
    expect(set.cardPublishedKeyFiles).toEqual(['/keys/old.pem', '/keys/older.jwk']);
  });

  it('refuses more than 16 previous keys, naming the setting', () => {
    const many = Array.from({ length: 17 }, (_, i) => `/k/${i}.pem`).join(',');
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_CARD_PUBLISHED_KEYS: many })).toThrow(/SWITCHBOARD_CARD_PUBLISHED_KEYS: SWITCHBOARD_CARD_PUBLISHED_KEYS lists at most 16 key files/);
  });
});

describe('SWITCHBOARD_OIDC_*', () => {
  const env = (extra: Record<string, string>) => ({ NODE_ENV: 'test' as const, ...extra });

  it('is off by default and, with issuers, needs an audience', () => {
    expect(loadSettings(env({})).oidc).toBeUndefined();
    expect(() => loadSettings(env({ SWITCHBOARD_OIDC_ISSUERS: 'https://idp.example.com' }))).toThrow(/SWITCHBOARD_OIDC_AUDIENCE: required with SWITCHBOARD_OIDC_ISSUERS/);
    expect(loadSettings(env({ SWITCHBOARD_OIDC_ISSUERS: 'https://idp.example.com/realms/a, http://127.0.0.1:9000', SWITCHBOARD_OIDC_AUDIENCE: 'switchboard' })).oidc).toEqual({
      issuers: ['https://idp.example.com/realms/a', 'http://127.0.0.1:9000'],
      audience: 'switchboard',
      ownerClaim: 'sub',
      agentsClaim: undefined,
      requiredScope: undefined,
      clockSkewSeconds: 30,
    });
  });

  it('refuses plain-http issuers off loopback, URLs with credentials or queries, and bad claims, naming the setting', () => {
    const base = { SWITCHBOARD_OIDC_AUDIENCE: 'switchboard' };
    for (const bad of ['http://idp.example.com', 'https://user:pw@idp.example.com', 'https://idp.example.com/?x=1', 'idp.example.com']) {
      expect(() => loadSettings(env({ ...base, SWITCHBOARD_OIDC_ISSUERS: bad }))).toThrow(/SWITCHBOARD_OIDC_ISSUERS: /);
    }
    const ok = { ...base, SWITCHBOARD_OIDC_ISSUERS: 'https://idp.example.com' };
    expect(() => loadSettings(env({ ...ok, SWITCHBOARD_OIDC_OWNER_CLAIM: 'a b' }))).toThrow(/SWITCHBOARD_OIDC_OWNER_CLAIM must be a claim name/);
    expect(() => loadSettings(env({ ...ok, SWITCHBOARD_OIDC_REQUIRED_SCOPE: 'a2a "x"' }))).toThrow(/SWITCHBOARD_OIDC_REQUIRED_SCOPE must be one OAuth scope token/);
    expect(() => loadSettings(env({ ...ok, SWITCHBOARD_OIDC_CLOCK_SKEW: '301' }))).toThrow(/SWITCHBOARD_OIDC_CLOCK_SKEW must be a whole number from 0 to 300/);
  });
});

describe('SWITCHBOARD_OIDC_LOGIN_*', () => {
  const base = { NODE_ENV: 'test' as const, SWITCHBOARD_OIDC_LOGIN_CLIENT_ID: 'dash', SWITCHBOARD_OPERATOR_TOKEN: 'operator-token-0123456789' };
  it('is off without a client id; the issuer defaults to the first inbound one; openid is always asked', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).oidcLogin).toBeUndefined();
    const login = loadSettings({ ...base, SWITCHBOARD_OIDC_ISSUERS: 'https://idp.example/realms/a', SWITCHBOARD_OIDC_AUDIENCE: 'x', SWITCHBOARD_OIDC_LOGIN_SCOPES: 'profile roles' }).oidcLogin;
    expect(login).toMatchObject({ issuer: 'https://idp.example/realms/a', clientId: 'dash', scopes: 'openid profile roles', name: 'idp.example', roleClaim: 'roles', operatorRole: 'switchboard-operator', viewerRole: 'switchboard-viewer' });
  });

  it('refuses a missing issuer, an http issuer off loopback and a missing operator token, naming the setting', () => {
    expect(() => loadSettings(base)).toThrow(/SWITCHBOARD_OIDC_LOGIN_ISSUER: required with SWITCHBOARD_OIDC_LOGIN_CLIENT_ID/);
    expect(() => loadSettings({ ...base, SWITCHBOARD_OIDC_LOGIN_ISSUER: 'http://idp.example' })).toThrow(/SWITCHBOARD_OIDC_LOGIN_ISSUER: "http:\/\/idp.example" must be an https URL/);
    expect(() => loadSettings({ ...base, SWITCHBOARD_OPERATOR_TOKEN: undefined, SWITCHBOARD_OIDC_LOGIN_ISSUER: 'https://idp.example' })).toThrow(/SWITCHBOARD_OPERATOR_TOKEN: required with SWITCHBOARD_OIDC_LOGIN_CLIENT_ID/);
  });
});
