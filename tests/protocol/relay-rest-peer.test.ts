/**
 * A relay agent in front of a peer whose card offers only HTTP+JSON (the @a2a-js/sdk 1.3.0
 * restHandler): a v0.3 JSON-RPC caller gets the peer's result, which Switchboard fetched over
 * the §11 resource paths.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory as ClientFactory0314 } from 'a2a-sdk-0314/client';
import { startApp, type AppServer } from '../support/app-server';
import { readTask, type TaskView } from '../support/dispatch-api';
import { sdkChunkText, startSdkPeer, type SdkPeer } from '../support/sdk-peer';

let app: AppServer;
let restPeer: SdkPeer;

beforeAll(async () => {
  restPeer = await startSdkPeer({ restOnly: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-rest-config-'));
  const config = { peers: [{ name: 'rest13', url: restPeer.url }], agents: [{ slug: 'relay-rest', relay: { peer: 'rest13' }, responseWindowSeconds: 30 }] };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'config.json'), SWITCHBOARD_CLIENT_TIMEOUT: '2' });
});
afterAll(async () => {
  await Promise.all([app?.stop(), restPeer?.close()]);
});

interface Detail extends TaskView {
  children: { id: string; direction: string; state: string; remoteTaskId: string | null }[];
}

describe('a relay agent in front of an HTTP+JSON-only peer', () => {
  it("a v0.3 JSON-RPC client (a2a-sdk 0.3.14) gets the peer's result", async () => {
    const client = await new ClientFactory0314().createFromUrl(`${app.url}/a2a/relay-rest/`);
    const result = await client.sendMessage({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'chunks 3 every 50ms' }] } });
    expect(result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const task = result as { id: string; artifacts?: { parts: { kind: string; text?: string }[] }[] };
    expect(task.artifacts?.flatMap((a) => a.parts).map((p) => p.text).join('')).toBe([0, 1, 2].map(sdkChunkText).join(''));
    const view = (await readTask(app.url, task.id)) as Detail;
    expect(view.children).toHaveLength(1);
    expect(view.children[0]).toMatchObject({ direction: 'outbound', state: 'completed' });
    // The peer was reached on its HTTP+JSON paths only.
    const methods = restPeer.requests.map((r) => r.method ?? '');
    expect(methods.some((m) => m === 'POST /message:stream' || m === 'POST /message:send')).toBe(true);
    expect(methods.every((m) => /^(GET|POST) \//.test(m))).toBe(true);
  });
});
