/**
 * The composition root (lib/app/switchboard.ts): a test builds an app in this process from
 * explicit settings (a temp-file SQLite store), starts it, runs a task through the engine and
 * stops it. The stop leaves no follower and no live timer behind: nothing would keep the
 * process from exiting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../lib/config/settings';
import { createSwitchboard } from '../../lib/app';
import { findAgent } from '../../lib/agents/registry';
import { store } from '../../lib/db/store';
import { callerScope } from '../../lib/db/task-scope';
import { sendMessage } from '../../lib/engine/inbound/operations';
import { outboundFollowers } from '../../lib/engine/outbound/follow-registry';
import { eventHub } from '../../lib/events/hub';

const settingsWithTempDb = () =>
  loadSettings({ NODE_ENV: 'test', DATABASE_URL: `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-root-')), 'app.db')}`, SWITCHBOARD_LOG_LEVEL: 'error', HOST: '127.0.0.1' });

/** Timers that keep the process alive (unref'd ones are not listed). */
const liveTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('createSwitchboard', () => {
  it('builds an app whose parts the layers below use; a second app replaces the first', async () => {
    const first = createSwitchboard(settingsWithTempDb());
    expect(store()).toBe(first.parts.store);
    expect(outboundFollowers()).toBe(first.parts.followers);
    const second = createSwitchboard(settingsWithTempDb());
    expect(store()).toBe(second.parts.store);
    expect(eventHub()).toBe(second.parts.hub);
    expect(second.parts.hub).not.toBe(first.parts.hub);
    await Promise.all([first.parts.store.ready, second.parts.store.ready]);
  });

  it('starts, runs a task, and stops leaving no follower or live timer', async () => {
    const timersBefore = liveTimers();
    const app = createSwitchboard(settingsWithTempDb());
    await app.start();
    const message = { kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hello' }] };
    const answer = await sendMessage({ agent: findAgent('echo')!, scope: callerScope('echo', 'anonymous'), message, peer: 'test' }, 'blocking');
    expect(answer).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    // A follower like a real one: it polls (a live timer) until it is stopped.
    let stoppedBecause: unknown = null;
    app.parts.followers.start('follow-1', (signal) => new Promise<void>((resolve) => {
      const poll = setInterval(() => undefined, 50);
      signal.addEventListener('abort', () => (clearInterval(poll), (stoppedBecause = signal.reason), resolve()), { once: true });
    }));
    expect(app.parts.followers.size()).toBe(1);

    await app.stop();
    expect(stoppedBecause).toBe('shutdown');
    expect(app.parts.followers.size()).toBe(0);
    expect(app.parts.executions.accepting).toBe(false);
    expect(liveTimers()).toBeLessThanOrEqual(timersBefore);
  });
});
