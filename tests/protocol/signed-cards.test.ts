/**
 * Signed cards (A2A v1.0 §8.4). Served side: every card (dual, pure v1.0, a
 * per-agent card) carries a detached JWS over its JCS form that verifies with `jose` against the
 * published JWKS its `jku` names; after a key rotation a card signed with the old key still
 * verifies. Peer side: a peer whose card key is pinned (config file: JWKS URL; API: JWK) is
 * called only when its card verifies; a tampered card is refused with the reason; an unpinned
 * peer serving the same tampered card works as before.
 */
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import canonicalize from 'canonicalize';
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, flattenedVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { testStore } from '../support/postgres';
import { dispatch, postJson, waitForTask } from '../support/dispatch-api';

type Card = Record<string, unknown> & { signatures?: { protected: string; signature: string }[] };

/** Verifies a served card as any A2A client would: JCS of the card minus signatures, detached JWS, key from the JWKS. */
async function verifyServed(card: Card, jwks: Parameters<typeof createLocalJWKSet>[0]): Promise<string> {
  expect(card.signatures?.length).toBe(1);
  const { signatures, ...unsigned } = card;
  const payload = Buffer.from(canonicalize(unsigned)!).toString('base64url');
  const { protectedHeader } = await flattenedVerify({ ...signatures![0], payload }, createLocalJWKSet(jwks));
  return protectedHeader!.kid!;
}

const getJson = async (url: string, headers: Record<string, string> = {}) => (await (await fetch(url, { headers })).json()) as Card;

/** Serves (at any path) the app's echo card with its description altered, signature kept: a man in the middle. */
async function startTamperer(app: () => string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    void getJson(`${app()}/a2a/echo/.well-known/agent-card.json`, { 'A2A-Version': '1.0' }).then((card) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...card, description: 'altered in transit' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Where the generated key lives: beside the SQLite file, or under ./data with PostgreSQL (like secret.key). */
const generatedKeyFile = () => (testStore() === 'postgresql' ? path.resolve('data', 'card-signing-key.jwk') : path.join(app.dataDir, 'card-signing-key.jwk'));

let app: AppServer;
let tamperer: Awaited<ReturnType<typeof startTamperer>>;
let appUrl = '';

beforeAll(async () => {
  tamperer = await startTamperer(() => appUrl);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  const jwksUrl = `${appUrl}/.well-known/jwks.json`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-signed-'));
  const config = path.join(dir, 'switchboard.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      peers: [
        { name: 'pinned-good', url: `${appUrl}/a2a/echo`, cardKey: { jwksUrl } },
        { name: 'pinned-tampered', url: `${tamperer.url}/a`, cardKey: { jwksUrl } },
        { name: 'unpinned-tampered', url: `${tamperer.url}/b` },
      ],
    }),
  );
  // '': the generated key (startApp gives PostgreSQL apps a key file of their own).
  app = await startApp({ SWITCHBOARD_CONFIG: config, SWITCHBOARD_CARD_SIGNING_KEY: '' }, { port });
});
afterAll(async () => {
  await Promise.all([app?.stop(), tamperer?.close()]);
});

describe('served cards are signed (v1.0 §8.4)', () => {
  it('the dual card, the pure v1.0 card and a per-agent card verify against the JWKS their jku names', async () => {
    const cards = [
      await getJson(`${app.url}/.well-known/agent-card.json`),
      await getJson(`${app.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' }),
      await getJson(`${app.url}/a2a/echo/.well-known/agent-card.json`),
    ];
    expect(cards[0].protocolVersion).toBe('0.3.0'); // dual
    expect(cards[1].protocolVersion).toBeUndefined(); // pure v1.0
    const jwks = (await getJson(`${app.url}/.well-known/jwks.json`)) as unknown as JSONWebKeySet;
    for (const card of cards) {
      const header = decodeProtectedHeader(card.signatures![0]);
      expect(header).toMatchObject({ alg: 'ES256', typ: 'JOSE', jku: `${app.url}/.well-known/jwks.json` });
      // A client fetches the key set from the jku itself.
      await flattenedVerify({ ...card.signatures![0], payload: Buffer.from(canonicalize({ ...card, signatures: undefined })!).toString('base64url') }, createRemoteJWKSet(new URL(header.jku!)));
      expect(await verifyServed(card, jwks)).toBe(header.kid);
    }
    expect(jwks.keys.every((k) => !('d' in k))).toBe(true); // public halves only
  });

  it('the key is generated beside the database, owner-only; the same card keeps its bytes (stable ETag)', async () => {
    const keyFile = generatedKeyFile();
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const [a, b] = await Promise.all([fetch(`${app.url}/.well-known/agent-card.json`), fetch(`${app.url}/.well-known/agent-card.json`)]);
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
  });

  it('a tampered card fails verification', async () => {
    const card = await getJson(`${app.url}/.well-known/agent-card.json`);
    const jwks = (await getJson(`${app.url}/.well-known/jwks.json`)) as unknown as JSONWebKeySet;
    await expect(verifyServed({ ...card, name: 'Someone else' }, jwks)).rejects.toThrow(/signature verification failed/);
  });
});

describe('pinned peers: the card must verify', () => {
  it('a pinned peer whose card verifies is called', async () => {
    const taskId = await dispatch(app.url, { peer: 'pinned-good', text: 'hello signed' });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.state).toBe('completed');
  });

  it('a tampered card from a peer pinned by JWKS URL is refused, with the reason on the task', async () => {
    const taskId = await dispatch(app.url, { peer: 'pinned-tampered', text: 'hello' });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.state).toBe('failed');
    expect(view.task.endReason).toMatch(/peer pinned-tampered: agent card signature verification failed against the pinned JWKS .*jwks\.json: kid [\w-]+: signature does not match the card/);
  });

  it('an unpinned peer serving the same altered card works as before', async () => {
    const taskId = await dispatch(app.url, { peer: 'unpinned-tampered', text: 'hello' });
    expect((await waitForTask(app.url, taskId)).task.state).toBe('completed');
  });

  it('a peer pinned over the API by JWK: the tampered card is refused, also by the peer test', async () => {
    const jwks = (await getJson(`${app.url}/.well-known/jwks.json`)) as unknown as JSONWebKeySet;
    const created = await postJson(`${app.url}/api/peers`, { name: 'jwk-tampered', url: `${tamperer.url}/c`, cardKey: { jwk: jwks.keys[0] } });
    expect(created.status).toBe(201);
    expect((created.body.peer as { cardKey: unknown }).cardKey).toEqual({ jwk: jwks.keys[0] });
    const taskId = await dispatch(app.url, { peer: 'jwk-tampered', text: 'hello' });
    expect((await waitForTask(app.url, taskId)).task.endReason).toMatch(/against the pinned key: kid [\w-]+: signature does not match/);
    const tested = await postJson(`${app.url}/api/peers/jwk-tampered/test`, {});
    expect(tested.body).toMatchObject({ reachable: false, error: expect.stringMatching(/signature verification failed/) });
  });

  it('a pin that is not a public key is refused naming the field', async () => {
    const priv = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const res = await postJson(`${app.url}/api/peers`, { name: 'bad-pin', url: 'https://a.example', cardKey: { jwk: priv } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toMatch(/cardKey.*public JWK/);
    const both = await postJson(`${app.url}/api/peers`, { name: 'bad-pin', url: 'https://a.example', cardKey: {} });
    expect(JSON.stringify(both.body.error)).toMatch(/exactly one of jwksUrl or jwk/);
  });
});

describe('key rotation', () => {
  it('after a restart with a new key (the old one published), the new card verifies and an old card still does', async () => {
    const oldCard = await getJson(`${app.url}/a2a/echo/.well-known/agent-card.json`);
    const oldKeyFile = generatedKeyFile();
    const newKeyFile = path.join(app.dataDir, 'new-card-key.pem');
    fs.writeFileSync(newKeyFile, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    await app.stop();
    await app.restart({ SWITCHBOARD_CARD_SIGNING_KEY: newKeyFile, SWITCHBOARD_CARD_PUBLISHED_KEYS: oldKeyFile });
    const jwks = (await getJson(`${app.url}/.well-known/jwks.json`)) as unknown as JSONWebKeySet;
    expect(jwks.keys).toHaveLength(2);
    const newCard = await getJson(`${app.url}/a2a/echo/.well-known/agent-card.json`);
    const newKid = await verifyServed(newCard, jwks);
    const oldKid = await verifyServed(oldCard, jwks);
    expect(newKid).not.toBe(oldKid);
    expect(jwks.keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
  });
});

describe('a card key that cannot be used refuses the start', () => {
  it('names the setting and the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-badkey-'));
    const publicOnly = path.join(dir, 'public.pem');
    fs.writeFileSync(publicOnly, generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'pem', type: 'spki' }));
    await expect(startApp({ SWITCHBOARD_CARD_SIGNING_KEY: path.join(dir, 'missing.pem') })).rejects.toThrow(/agent card signing keys: SWITCHBOARD_CARD_SIGNING_KEY: cannot read .*missing\.pem/);
    await expect(startApp({ SWITCHBOARD_CARD_SIGNING_KEY: publicOnly })).rejects.toThrow(/SWITCHBOARD_CARD_SIGNING_KEY: .*public\.pem holds a public key/);
  });
});
