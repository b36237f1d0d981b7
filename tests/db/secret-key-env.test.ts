/**
 * With SWITCHBOARD_SECRET_KEY set, stored secrets are sealed with that key and no
 * key file is written; a too-short key is refused naming the setting.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/in-process';

let dir: string;
let box: typeof import('../../lib/db/secret-box');

beforeAll(async () => {
  dir = useFreshDatabase({ SWITCHBOARD_SECRET_KEY: 'k'.repeat(16) + 'an-operator-chosen-key' });
  box = await import('../../lib/db/secret-box');
});

describe('SWITCHBOARD_SECRET_KEY', () => {
  it('seals with the key from the environment, without a key file', () => {
    const sealed = box.sealSecret('s3cret', 'Peer.authSecret');
    expect(sealed).toMatch(/^enc:v1:/);
    expect(box.openSecret(sealed, 'Peer.authSecret')).toBe('s3cret');
    expect(fs.existsSync(path.join(dir, box.SECRET_KEY_FILE))).toBe(false);
  });

  it('opens a sealed value once, and only for its column: a changed secret is a new sealed text', () => {
    const sealed = box.sealSecret('token-1', 'Peer.authSecret');
    expect(box.openSecret(sealed, 'Peer.authSecret')).toBe('token-1');
    expect(box.tryOpenSecret(sealed, 'Peer.authSecret')).toBe(box.tryOpenSecret(sealed, 'Peer.authSecret')); // the kept result
    expect(box.tryOpenSecret(sealed, 'Peer.headers')).toEqual({ readable: false }); // bound to its column, never taken from the memo
    const changed = box.sealSecret('token-2', 'Peer.authSecret');
    expect(changed).not.toBe(sealed);
    expect(box.openSecret(changed, 'Peer.authSecret')).toBe('token-2');
  });

  it('refuses a key shorter than 32 characters, naming the setting', async () => {
    const { loadSettings } = await import('../../lib/config/settings');
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_SECRET_KEY: 'short' })).toThrow(/SWITCHBOARD_SECRET_KEY: SWITCHBOARD_SECRET_KEY must be at least 32 characters/);
  });
});
