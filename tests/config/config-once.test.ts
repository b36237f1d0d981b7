/**
 * The log takes its level from the settings loader (not the environment each time),
 * and the config file is read once per process, so a bad peer entry is logged once, not by
 * both the agent registry and the peer sync.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useFreshDatabase } from '../support/in-process';

let dir: string;
let lines: string[] = [];

beforeAll(() => {
  dir = useFreshDatabase({ SWITCHBOARD_LOG_LEVEL: 'warn' });
  const config = path.join(dir, 'switchboard.yaml');
  fs.writeFileSync(config, 'peers:\n  - name: broken-peer\n    url: 42\n');
  process.env.SWITCHBOARD_CONFIG = config;
});

function capture() {
  lines = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  }
}
afterEach(() => vi.restoreAllMocks());

describe('settings and config, loaded once', () => {
  it('the log level is the one the settings loader parsed', async () => {
    const { getSettings } = await import('../../lib/config/settings');
    const { log } = await import('../../lib/log');
    expect(getSettings().logLevel).toBe('warn');
    process.env.SWITCHBOARD_LOG_LEVEL = 'debug'; // too late: settings are parsed once
    capture();
    log.info('not shown at warn');
    log.warn('shown at warn');
    vi.restoreAllMocks();
    expect(lines.join('')).not.toContain('not shown at warn');
    expect(lines.join('')).toContain('shown at warn');
  });

  it('a bad peer entry in the config file is logged once', async () => {
    const { agentRegistry } = await import('../../lib/agents/registry');
    const { syncConfiguredPeers } = await import('../../lib/peers/sync');
    capture();
    agentRegistry();
    await syncConfiguredPeers();
    vi.restoreAllMocks();
    expect(lines.filter((l) => l.includes('broken-peer'))).toHaveLength(1);
  });
});
