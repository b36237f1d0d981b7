/**
 * A relay's child created with its caller's task is sent before the caller's bookkeeping runs
 * (decision 401): Node writes a client request on its socket in a process.nextTick, which runs
 * only once every queued promise job has, so the prepared child's start yields a turn of the
 * event loop and resolves with its message already written. The peer here is a plain HTTP
 * server that holds the request open: only when the message left is looked at.
 */
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

let server: http.Server;
let url = '';
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  await freshStore();
  server = http.createServer((req, res) => {
    if (req.method === 'GET') return void res.end('ok'); // the warm-up: leaves a kept-alive socket
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A GET through Node's global (keep-alive) agent: the child's send then reuses its socket. */
const warmUp = () =>
  new Promise<void>((resolve, reject) => {
    http.get(`${url}/warm`, (res) => res.resume().once('end', resolve)).once('error', reject);
  });

describe("a relay's child created with its caller's task", () => {
  it('has its message written to the socket before its start resolves', async () => {
    const { createPeer } = await import('../../lib/peers/registry');
    const { savePeerCard } = await import('../../lib/db/peer-repo');
    const { createTaskRecord } = await import('../../lib/engine/core/task-writer');
    const { prepareChildDispatch } = await import('../../lib/engine/outbound/dispatch');
    await createPeer({ name: 'held', url: `${url}/a2a`, auth: { type: 'none' }, headers: {}, credentialOrigins: [] });
    const card = { name: 'held', capabilities: { streaming: true }, supportedInterfaces: [{ url: `${url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
    await savePeerCard('held', { card, protocolVersion: '1.0', endpointUrl: `${url}/a2a` });
    const parent = { id: crypto.randomUUID(), contextId: crypto.randomUUID(), traceContext: null };
    await createTaskRecord({ id: parent.id, contextId: parent.contextId, direction: 'inbound', agentSlug: 'relay', state: 'working', requestText: 'go' }, []);
    await warmUp();
    const parts = [{ kind: 'text' as const, text: 'go' }];
    const creation = await prepareChildDispatch({ peer: 'held', text: 'go', mode: 'streaming' }, { parts, maxCardAgeMs: 30_000 });
    expect(creation).not.toBeNull();
    const written: string[] = [];
    const onStart = ({ request }: { request: http.ClientRequest }) => void (request.method === 'POST' && written.push(request.path));
    dc.subscribe('http.client.request.start', onStart as (message: unknown) => void);
    try {
      const child = creation!.create(parent);
      await child.start();
      // Without the yield, start resolved in the same run of promise jobs, before any tick wrote it.
      expect(written).toEqual(['/a2a']);
    } finally {
      dc.unsubscribe('http.client.request.start', onStart as (message: unknown) => void);
    }
  });
});
