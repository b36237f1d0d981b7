/** Relay agents in the config file: the two forms, and the entries refused by key. */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFileConfig } from './file-config';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-relay-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function load(agent: Record<string, unknown>, peers: unknown[] = []) {
  const file = path.join(dir, `${crypto.randomUUID()}.json`);
  fs.writeFileSync(file, JSON.stringify({ peers, agents: [{ slug: 'r', ...agent }] }));
  return loadFileConfig(file);
}

describe('relay agents', () => {
  it('name a configured peer; name, description and skills are optional', () => {
    const config = load({ relay: { peer: 'b' }, responseWindowSeconds: 1, lateResultGraceSeconds: 300 }, [{ name: 'b', url: 'http://b.example' }]);
    expect(config.issues).toEqual([]);
    expect(config.agents[0]).toMatchObject({ slug: 'r', relay: { peer: 'b' }, responseWindowSeconds: 1, lateResultGraceSeconds: 300 });
    expect(config.agents[0].name).toBeUndefined();
    expect(config.peers.map((p) => p.name)).toEqual(['b']);
  });

  it('or a URL with the auth fields a peer has, served through a config peer `relay.<slug>`', () => {
    const config = load({ relay: { url: 'https://c.example/a2a', auth: { type: 'bearer', tokenEnv: 'C_TOKEN' }, timeoutSeconds: 30 } });
    expect(config.issues).toEqual([]);
    expect(config.peers).toEqual([
      expect.objectContaining({ name: 'relay.r', url: 'https://c.example/a2a', auth: { type: 'bearer', tokenEnv: 'C_TOKEN' }, timeoutSeconds: 30 }),
    ]);
  });

  it('refuses ambiguous or incomplete entries, naming the key', () => {
    for (const [agent, key, message] of [
      [{ relay: { peer: 'b', url: 'https://c.example' } }, 'relay.peer', 'exactly one of peer or url'],
      [{ relay: {} }, 'relay.peer', 'exactly one of peer or url'],
      [{ relay: { peer: 'b', auth: { type: 'none' } } }, 'relay.auth', 'only with url'],
      [{ relay: { url: 'ftp://c.example' } }, 'relay.url', 'http(s)'],
      [{ relay: { peer: 'b' }, launcher: { type: 'process', command: ['true'] } }, 'launcher', 'exactly one of launcher or relay'],
      [{ launcher: { type: 'process', command: ['true'] } }, 'name', 'required for a launcher agent'],
      [{ relay: { peer: 'b', token: 'x' } }, 'relay', 'token'],
    ] as const) {
      const config = load(agent);
      expect(config.agents, JSON.stringify(agent)).toEqual([]);
      expect(config.issues[0].key).toBe(key);
      expect(config.issues[0].message).toContain(message);
    }
  });
});

describe('card key pins (decision 200)', () => {
  it("a relay URL's pin goes to its config peer; a peer's pin is kept as given", () => {
    const pin = { jwksUrl: 'https://c.example/.well-known/jwks.json' };
    const config = load({ relay: { url: 'https://c.example/a2a', cardKey: pin } }, [{ name: 'b', url: 'http://b.example', cardKey: { jwk: { kty: 'OKP', crv: 'Ed25519', x: 'abc' } } }]);
    expect(config.issues).toEqual([]);
    expect(config.peers.find((p) => p.name === 'relay.r')?.cardKey).toEqual(pin);
    expect(config.peers.find((p) => p.name === 'b')?.cardKey).toEqual({ jwk: { kty: 'OKP', crv: 'Ed25519', x: 'abc' } });
  });

  it('refuses a pin that is both, neither, private or beside a named peer, naming the key', () => {
    for (const [agent, key, message] of [
      [{ relay: { url: 'https://c.example', cardKey: {} } }, 'relay.cardKey', 'exactly one of jwksUrl or jwk'],
      [{ relay: { url: 'https://c.example', cardKey: { jwksUrl: 'https://c.example/k', jwk: { kty: 'EC' } } } }, 'relay.cardKey', 'exactly one of jwksUrl or jwk'],
      [{ relay: { url: 'https://c.example', cardKey: { jwk: { kty: 'EC', d: 'secret' } } } }, 'relay.cardKey.jwk', 'public JWK'],
      [{ relay: { url: 'https://c.example', cardKey: { jwksUrl: 'ftp://c.example/k' } } }, 'relay.cardKey.jwksUrl', 'http(s) URL'],
      [{ relay: { peer: 'b', cardKey: { jwksUrl: 'https://c.example/k' } } }, 'relay.cardKey', 'only with url'],
    ] as const) {
      const config = load(agent);
      expect(config.agents, JSON.stringify(agent)).toEqual([]);
      expect(config.issues[0].key).toBe(key);
      expect(config.issues[0].message).toContain(message);
    }
  });
});
