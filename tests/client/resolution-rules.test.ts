/**
 * The wire client's unit rules: URL normalisation, timeout precedence and override
 * validation, SSE framing, and reading versions and endpoints from agent cards.
 */
import { describe, expect, it } from 'vitest';
import { normalizeAgentUrl, normalizeUrl } from '@/lib/client/normalize-url';
import { pickTimeout, validateTimeoutOverride } from '@/lib/peers/timeouts';
import { ClientError } from '@/lib/protocol/client-error';
import { SseParser } from '@/lib/client/sse';
import { chooseInterface, describeCard } from '@/lib/client/agent-card';
import { TIMING_EXTENSION_URI } from '@/lib/protocol/extensions';
import { parseRpcBody, RpcError } from '@/lib/client/json-rpc';
import { TransportError } from '@/lib/client/http-transport';

describe('normalizeUrl', () => {
  it.each([
    ['HTTP://Example.COM/', 'http://example.com'],
    ['http://example.com:80/a2a/', 'http://example.com/a2a'],
    ['https://example.com:443', 'https://example.com'],
    ['https://example.com:8443/x//', 'https://example.com:8443/x'],
    ['http://example.com/a2a#frag', 'http://example.com/a2a'],
    ['http://example.com/a2a?tenant=t1', 'http://example.com/a2a?tenant=t1'],
    ['  http://127.0.0.1:3000/a2a/Slow  ', 'http://127.0.0.1:3000/a2a/Slow'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it('keeps a non-default port and the path case', () => {
    expect(normalizeUrl('http://h:8080/A')).not.toBe(normalizeUrl('http://h/A'));
    expect(normalizeUrl('http://h/A')).not.toBe(normalizeUrl('http://h/a'));
  });

  it('a card URL names its agent', () => {
    expect(normalizeAgentUrl('http://H:80/.well-known/agent-card.json')).toBe('http://h');
    expect(normalizeAgentUrl('http://h/a2a/slow/.well-known/agent.json')).toBe('http://h/a2a/slow');
  });

  it('refuses what is not an absolute http(s) URL', () => {
    expect(() => normalizeUrl('ftp://h/')).toThrow();
    expect(() => normalizeUrl('/relative')).toThrow();
  });
});

describe('timeout precedence: dispatch override > peer > SWITCHBOARD_CLIENT_TIMEOUT', () => {
  it('the override wins', () => {
    expect(pickTimeout({ overrideSeconds: 2, peerTimeoutSeconds: 60, defaultMs: 330_000 })).toEqual({ ms: 2_000, source: 'dispatch' });
  });
  it('then the peer', () => {
    expect(pickTimeout({ peerTimeoutSeconds: 60, defaultMs: 330_000 })).toEqual({ ms: 60_000, source: 'peer' });
  });
  it('then the global default', () => {
    expect(pickTimeout({ peerTimeoutSeconds: null, defaultMs: 330_000 })).toEqual({ ms: 330_000, source: 'default' });
  });
  it('fractions are allowed (tests scale time down)', () => {
    expect(pickTimeout({ overrideSeconds: 0.25, defaultMs: 1 })).toEqual({ ms: 250, source: 'dispatch' });
  });
  it.each([0, -1, 86_401, Number.NaN, Number.POSITIVE_INFINITY, '30', true])('refuses %s with a message naming timeoutSeconds and the 24 h bound', (value) => {
    expect(() => validateTimeoutOverride(value)).toThrow(ClientError);
    expect(() => validateTimeoutOverride(value)).toThrow(/timeoutSeconds: must be a positive number of seconds, at most 86400 \(24 h\)/);
  });
  it('accepts 24 h exactly, and no override', () => {
    expect(validateTimeoutOverride(86_400)).toBe(86_400);
    expect(validateTimeoutOverride(undefined)).toBeUndefined();
  });
});

describe('SSE parsing', () => {
  it('joins data lines, skips comments, handles every line ending and split chunks', () => {
    const parser = new SseParser();
    const events = [
      ...parser.push(': keepalive\n\ndata: {"a":'),
      ...parser.push('1}\r\n\r'),
      ...parser.push('\nevent: error\rdata: x\rdata: y\r\r'),
      ...parser.push('id: 7\ndata: last\n\n'),
    ];
    expect(events).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'error', data: 'x\ny' },
      { event: 'message', data: 'last', id: '7' },
    ]);
  });
  it('splits a multi-byte character across chunks safely', () => {
    const parser = new SseParser();
    const bytes = Buffer.from('data: é\n\n');
    expect([...parser.push(bytes.subarray(0, 7)), ...parser.push(bytes.subarray(7))]).toEqual([{ event: 'message', data: 'é' }]);
  });
});

describe('agent cards', () => {
  const v10 = {
    name: 'B',
    supportedInterfaces: [
      { url: 'http://b/a2a/slow', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://b/a2a/slow', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    capabilities: { streaming: true, extensions: [{ uri: TIMING_EXTENSION_URI, params: { responseWindowSeconds: 300 } }] },
    skills: [{ id: 's', name: 'S' }],
  };

  it('prefers the first interface (v1.0) and can be forced to v0.3', () => {
    const info = describeCard(v10, 'http://b/a2a/slow/.well-known/agent-card.json');
    expect(info.responseWindowMs).toBe(300_000);
    expect(chooseInterface(info, 'http://b/a2a/slow')).toEqual({ version: '1.0', url: 'http://b/a2a/slow' });
    expect(chooseInterface(info, 'http://b/a2a/slow', '0.3')).toEqual({ version: '0.3', url: 'http://b/a2a/slow' });
  });

  it('reads a v0.3-only card from its url and protocolVersion', () => {
    const info = describeCard({ name: 'old', protocolVersion: '0.3.0', url: '/rpc', preferredTransport: 'JSONRPC' }, 'http://o/.well-known/agent-card.json');
    expect(chooseInterface(info, 'http://o')).toEqual({ version: '0.3', url: 'http://o/rpc' });
    expect(() => chooseInterface(info, 'http://o', '1.0')).toThrow(/offers no interface we speak for A2A 1.0/);
  });

  it('an agent path that the origin card does not list is the endpoint itself', () => {
    const info = describeCard({ ...v10, supportedInterfaces: [{ url: 'http://b/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }, 'http://b/.well-known/agent-card.json');
    expect(chooseInterface(info, 'http://b/a2a/custom')).toEqual({ version: '1.0', url: 'http://b/a2a/custom' });
    expect(chooseInterface(info, 'http://b/')).toEqual({ version: '1.0', url: 'http://b/a2a' });
  });
});

describe('JSON-RPC answers', () => {
  it('a JSON-RPC error is an RpcError with its code, whatever the HTTP status', () => {
    expect(() => parseRpcBody(200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}')).toThrow(RpcError);
    expect(() => parseRpcBody(400, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}')).toThrow(RpcError);
  });
  it('401 is a transport error naming the credentials', () => {
    expect(() => parseRpcBody(401, '{}', 'Bearer')).toThrow(TransportError);
    expect(() => parseRpcBody(401, '{}', 'Bearer')).toThrow(/credentials refused.*WWW-Authenticate: Bearer/);
  });
  it('a result is returned as is', () => {
    expect(parseRpcBody(200, '{"jsonrpc":"2.0","id":1,"result":{"kind":"task"}}')).toEqual({ kind: 'task' });
  });
});
