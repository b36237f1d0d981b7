/**
 * Card discovery against a real HTTP server: which URLs are cards themselves, and
 * what a failed discovery says — each refusal with its status and the server's own error, so a
 * version refusal is not reported as a missing card.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAgentCard } from '@/lib/client/agent-card';
import { isCardUrl } from '@/lib/client/normalize-url';
import { closeServer } from '../support/sdk-peer';

let server: http.Server;
let base = '';
const reads: { path: string; a2aVersion?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    reads.push({ path: req.url ?? '', a2aVersion: req.headers['a2a-version'] as string | undefined });
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { code: -32009, message: 'A2A version not supported' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => closeServer(server));

describe('card URLs', () => {
  it.each([
    ['http://h/.well-known/agent-card.json', true],
    ['http://h/a2a/slow/.well-known/agent.json', true],
    ['http://h/.well-known/volt/agent-card.json', true],
    ['http://h/cards/volt.json', true],
    ['http://h/a2a/volt', false],
    ['http://h', false],
  ])('%s names a card: %s', (url, expected) => {
    expect(isCardUrl(url)).toBe(expected);
  });
});

describe('a discovery that finds no card', () => {
  it("names each URL tried with the server's answer, asking each once with and once without the version header", async () => {
    const error = await fetchAgentCard(`${base}/a2a/x`, {}, 5_000).catch((err: Error) => err);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`${base}/a2a/x/.well-known/agent-card.json (HTTP 400: A2A version not supported (JSON-RPC -32009))`);
    expect(reads.filter((r) => r.path === '/a2a/x/.well-known/agent-card.json').map((r) => r.a2aVersion ?? 'none')).toEqual(['1.0', 'none']);
  });

  it('a card URL is asked alone, never extended', async () => {
    reads.length = 0;
    await fetchAgentCard(`${base}/.well-known/volt/agent-card.json`, {}, 5_000).catch(() => null);
    expect(new Set(reads.map((r) => r.path))).toEqual(new Set(['/.well-known/volt/agent-card.json']));
  });
});
