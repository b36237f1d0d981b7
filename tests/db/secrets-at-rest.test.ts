/**
 * Secrets at rest. Peer secrets and push tokens/credentials are stored encrypted
 * (AES-256-GCM) with a key file generated beside the database (0600); rows an older version
 * wrote in plain text still read, and are sealed at boot. The database folder is 0700 and its
 * files 0600, also when `npm run keys` creates them first.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/in-process';

type PeerRepo = typeof import('../../lib/db/peer-repo');
type PushRepo = typeof import('../../lib/db/push-repo');
let dir: string;
let peers: PeerRepo;
let pushes: PushRepo;
let raw: Database.Database;

const mode = (file: string) => fs.statSync(file).mode & 0o777;

beforeAll(async () => {
  dir = useFreshDatabase();
  peers = await import('../../lib/db/peer-repo');
  pushes = await import('../../lib/db/push-repo');
  (await import('../../lib/db/client')).db();
  raw = new Database(path.join(dir, 'test.db'));
  raw.prepare('INSERT INTO "Task" (id, contextId, direction, state) VALUES (\'t1\', \'c1\', \'inbound\', \'working\')').run();
});

const peerInput = (name: string, secret: string) => ({
  name,
  url: `https://${name}.example`,
  normalizedUrl: `https://${name}.example`,
  authType: 'bearer' as const,
  authSecret: secret,
  authHeader: null,
  headers: { 'X-Tenant-Key': `${secret}-header` },
  credentialOrigins: [],
  cardKey: null,
  timeoutSeconds: null,
  notes: null,
  source: 'api' as const,
});

const rawPeer = (name: string) => raw.prepare('SELECT authSecret, headers FROM "Peer" WHERE name = ?').get(name) as { authSecret: string; headers: string };
const rawPeerSecret = (name: string) => rawPeer(name).authSecret;
const rawPush = (id: string) => raw.prepare('SELECT url, token, authentication FROM "PushConfig" WHERE id = ?').get(id) as { url: string; token: string; authentication: string };

describe('stored secrets are encrypted', () => {
  it('a peer secret and its headers are stored sealed and read back plain; the key file is 0600 beside the database', async () => {
    await peers.insertPeerRecord(peerInput('alpha', 'peer-secret-alpha'));
    expect(rawPeer('alpha').authSecret).toMatch(/^enc:v1:/);
    expect(rawPeer('alpha').headers).toMatch(/^enc:v1:/);
    expect(JSON.stringify(rawPeer('alpha'))).not.toContain('peer-secret-alpha');
    expect(await peers.findPeerRecord('alpha')).toMatchObject({ authSecret: 'peer-secret-alpha', headers: { 'X-Tenant-Key': 'peer-secret-alpha-header' } });
    expect(mode(path.join(dir, 'secret.key'))).toBe(0o600);
  });

  it('push URL, token and credentials are stored sealed and read back plain', async () => {
    await pushes.upsertPushConfig({ taskId: 't1', id: 'p1', url: 'https://hooks.example/x', token: 'push-token-1', authentication: { scheme: 'Bearer', credentials: 'push-cred-1' }, version: '1.0' });
    const stored = rawPush('p1');
    expect(stored.url).toMatch(/^enc:v1:/);
    expect(stored.token).toMatch(/^enc:v1:/);
    expect(stored.authentication).toMatch(/^enc:v1:/);
    expect(JSON.stringify(stored)).not.toMatch(/push-token-1|push-cred-1/);
    expect(await pushes.findPushConfig('t1', 'p1')).toMatchObject({ url: 'https://hooks.example/x', token: 'push-token-1', authentication: { scheme: 'Bearer', credentials: 'push-cred-1' } });
  });

  it('plaintext rows of an older version still read, and are sealed by the boot migration', async () => {
    raw.prepare('INSERT INTO "Peer" (name, url, normalizedUrl, authType, authSecret, headers) VALUES (\'legacy\', \'https://legacy.example\', \'https://legacy.example\', \'bearer\', \'legacy-secret\', \'{"X-Team":"blue"}\')').run();
    raw.prepare('INSERT INTO "PushConfig" (taskId, id, url, token, authentication, version) VALUES (\'t1\', \'old\', \'https://h.example\', \'old-token\', \'{"scheme":"Bearer","credentials":"old-cred"}\', \'1.0\')').run();
    expect((await peers.findPeerRecord('legacy'))?.authSecret).toBe('legacy-secret');
    expect(await pushes.findPushConfig('t1', 'old')).toMatchObject({ token: 'old-token', authentication: { credentials: 'old-cred' } });

    expect(await peers.sealPeerSecretsAgain()).toEqual({ resealed: 1, unreadable: [] });
    expect(await pushes.sealPushSecretsAgain()).toEqual({ resealed: 1, unreadable: [] });
    expect(rawPeer('legacy').authSecret).toMatch(/^enc:v1:/);
    expect(rawPeer('legacy').headers).toMatch(/^enc:v1:/);
    expect((await peers.findPeerRecord('legacy'))?.headers).toEqual({ 'X-Team': 'blue' });
    expect(rawPush('old').url).toMatch(/^enc:v1:/);
    expect(rawPush('old').token).toMatch(/^enc:v1:/);
    expect(rawPush('old').authentication).toMatch(/^enc:v1:/);
    expect((await peers.findPeerRecord('legacy'))?.authSecret).toBe('legacy-secret');
    expect(await pushes.findPushConfig('t1', 'old')).toMatchObject({ url: 'https://h.example', token: 'old-token', authentication: { credentials: 'old-cred' } });
    expect(await peers.sealPeerSecretsAgain()).toEqual({ resealed: 0, unreadable: [] });
    expect(await pushes.sealPushSecretsAgain()).toEqual({ resealed: 0, unreadable: [] });
  });

  it('a sealed value cannot be moved to another column', async () => {
    raw.prepare('UPDATE "PushConfig" SET token = ? WHERE id = \'p1\'').run(rawPeerSecret('alpha'));
    expect((await pushes.findPushConfig('t1', 'p1'))?.token).toBeNull();
    // and the start-up check names it, so the start is refused instead of pushing without the token
    expect((await pushes.sealPushSecretsAgain()).unreadable).toEqual(['push config "p1" of task t1 (PushConfig.token)']);
  });

  it('the database file and its WAL are 0600', () => {
    expect(mode(path.join(dir, 'test.db'))).toBe(0o600);
    expect(mode(path.join(dir, 'test.db-wal'))).toBe(0o600);
  });
});

describe('file modes when `npm run keys` creates the database', () => {
  it('creates the data folder 0700 and the database files 0600', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-keys-'));
    const dataDir = path.join(root, 'fresh', 'data');
    const env = { ...process.env, DATABASE_URL: `file:${path.join(dataDir, 'sb.db')}`, SWITCHBOARD_LOG_LEVEL: 'error' };
    const created = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', 'first-key'], { env, encoding: 'utf8' });
    expect(created.status, created.stderr).toBe(0);
    expect(mode(path.join(root, 'fresh'))).toBe(0o700);
    expect(mode(dataDir)).toBe(0o700);
    const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('sb.db'));
    expect(files).toContain('sb.db');
    for (const file of files) expect([file, mode(path.join(dataDir, file))]).toEqual([file, 0o600]);
  });

  it('tightens a database file an older version left 0644', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-keys-'));
    const file = path.join(root, 'old.db');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const env = { ...process.env, DATABASE_URL: `file:${file}`, SWITCHBOARD_LOG_LEVEL: 'error' };
    const listed = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'list'], { env, encoding: 'utf8' });
    expect(listed.status, listed.stderr).toBe(0);
    expect(mode(file)).toBe(0o600);
  });
});
