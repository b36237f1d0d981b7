/**
 * One secret key for a PostgreSQL cluster. An instance without SWITCHBOARD_SECRET_KEY,
 * or with another key than the one that sealed the stored secrets, refuses to start naming the
 * setting (instead of calling peers without their credentials); a rotation with
 * SWITCHBOARD_SECRET_KEY_PREVIOUS seals every stored secret again with the new key and keeps
 * the peer's credentials working; and a delegation token issued by one instance works on another.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';
import { freshPgDatabase } from '../support/postgres';
import { dispatch, postJson, waitForTask } from '../support/dispatch-api';
import { startTokenPeer, type TokenPeer } from '../support/token-peer';

const KEY_A = 'cluster-key-a-0123456789abcdefghijklmnop';
const KEY_B = 'cluster-key-b-0123456789abcdefghijklmnop';
const PEER_TOKEN = 'peer-bearer-token-0123456789';

let apps: AppServer[] = [];
let peer: TokenPeer | undefined;
afterEach(async () => {
  await Promise.all(apps.map((a) => a.kill()));
  apps = [];
  await peer?.close();
  peer = undefined;
});

async function start(env: Record<string, string>, port?: number): Promise<AppServer> {
  const app = await startApp(env, { port });
  apps.push(app);
  return app;
}

/** What an instance that refuses to start wrote (startApp's error carries its output). */
async function refusal(env: Record<string, string>): Promise<string> {
  const error = await start(env).then(
    () => new Error('the instance started'),
    (err: Error) => err,
  );
  expect(error.message).toMatch(/Switchboard cannot start/);
  return error.message;
}

/** The stored (sealed) secret of a peer, read straight from the database. */
async function storedSecret(databaseUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query('SELECT "authSecret" FROM "Peer" WHERE name = $1', [name])).rows[0].authSecret;
  } finally {
    await client.end();
  }
}

async function addGuardedPeer(app: AppServer): Promise<void> {
  peer = await startTokenPeer(PEER_TOKEN);
  const created = await postJson(`${app.url}/api/peers`, { name: 'guarded', url: peer.url, auth: { type: 'bearer', token: PEER_TOKEN } });
  expect(created.status).toBe(201);
}

async function dispatchToGuarded(app: AppServer): Promise<string> {
  const taskId = await dispatch(app.url, { peer: 'guarded', text: 'hello', mode: 'blocking' });
  return (await waitForTask(app.url, taskId)).task.state;
}

describe('one secret key for the cluster', () => {
  it('PostgreSQL without SWITCHBOARD_SECRET_KEY refuses to start, naming the setting', async () => {
    expect(await refusal({ DATABASE_URL: await freshPgDatabase(), SWITCHBOARD_SECRET_KEY: '' })).toMatch(/SWITCHBOARD_SECRET_KEY is not set, and this database is PostgreSQL/);
  });

  it('an instance with another key refuses to start, naming the peer and SWITCHBOARD_SECRET_KEY', async () => {
    const DATABASE_URL = await freshPgDatabase();
    const a = await start({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'a', SWITCHBOARD_SECRET_KEY: KEY_A });
    await addGuardedPeer(a);
    const refused = await refusal({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'b', SWITCHBOARD_SECRET_KEY: KEY_B });
    expect(refused).toMatch(/\d stored secret\(s\) cannot be opened with this instance's key:\n/);
    expect(refused).toMatch(/ {2}- peer "guarded" \(Peer.authSecret, Peer.headers\)\n/);
    expect(refused).toMatch(/Set SWITCHBOARD_SECRET_KEY to the key that sealed them/);
    expect(refused).not.toContain(PEER_TOKEN);
  });

  it('a rotation with SWITCHBOARD_SECRET_KEY_PREVIOUS seals again with the new key, and the peer keeps its credentials', async () => {
    const DATABASE_URL = await freshPgDatabase();
    const a = await start({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'a', SWITCHBOARD_SECRET_KEY: KEY_A });
    await addGuardedPeer(a);
    const sealedWithA = await storedSecret(DATABASE_URL, 'guarded');
    await a.stop();

    const b = await start({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'b', SWITCHBOARD_SECRET_KEY: KEY_B, SWITCHBOARD_SECRET_KEY_PREVIOUS: KEY_A });
    expect(await storedSecret(DATABASE_URL, 'guarded')).not.toBe(sealedWithA);
    expect(await dispatchToGuarded(b)).toBe('completed');
    expect(peer!.authorizations.at(-1)).toBe(`Bearer ${PEER_TOKEN}`);
    await b.stop();

    // Sealed with the new key only: the old key alone no longer opens it, the new key alone does.
    expect(await refusal({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'a', SWITCHBOARD_SECRET_KEY: KEY_A })).toMatch(/peer "guarded"/);
    const again = await start({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'b', SWITCHBOARD_SECRET_KEY: KEY_B });
    expect(await dispatchToGuarded(again)).toBe('completed');
    expect(peer!.authorizations.at(-1)).toBe(`Bearer ${PEER_TOKEN}`);
  });
});

describe('delegation tokens across instances', () => {
  it('a token issued by instance A dispatches through instance B', async () => {
    const DATABASE_URL = await freshPgDatabase();
    const portB = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-cluster-delegate-'));
    const fixture = path.resolve('tests/fixtures/agents/delegate.mjs');
    const config = { agents: [{ slug: 'delegator', name: 'Delegator', launcher: { type: 'process', command: [fixture, '-', '-', `http://127.0.0.1:${portB}/api/dispatch`] } }] };
    fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
    const env = { DATABASE_URL, SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_RESPONSE_WINDOW: '30' };
    const a = await start({ ...env, SWITCHBOARD_INSTANCE_ID: 'a' });
    await start({ ...env, SWITCHBOARD_INSTANCE_ID: 'b' }, portB);

    const res = await rpc(`${a.url}/a2a/delegator`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'go' }] } });
    const reply = res.body.result.status.message.parts.map((p: { text?: string }) => p.text ?? '').join('');
    expect(reply).toMatch(/^child \S+ completed/);
  });
});
