import { describe, expect, it } from 'vitest';
import { bindingOf, credentialOriginOf, restBaseUrl, restEndpoint } from './endpoint-binding';
import { chooseInterface, describeCard } from './agent-card';
import { parseRestBody } from './rest-transport';
import { RpcError } from './json-rpc';
import { TransportError } from './http-transport';

describe('HTTP+JSON endpoints', () => {
  it('carry the base URL and the tenant, and read back', () => {
    expect(restEndpoint('http://127.0.0.1:4000/rest/', '')).toBe('rest+http://127.0.0.1:4000/rest');
    expect(restEndpoint('https://a.example.com/api', 'a b')).toBe('rest+https://a.example.com/api/a%20b');
    expect(restBaseUrl('rest+https://a.example.com/api/a%20b')).toBe('https://a.example.com/api/a%20b');
    expect(restBaseUrl('http://a.example.com/api')).toBeNull();
    expect(restBaseUrl('rest+ftp://a.example.com/api')).toBeNull();
  });

  it('one function tells the three bindings apart', () => {
    expect(bindingOf('rest+http://127.0.0.1:4000/rest')).toBe('HTTP+JSON');
    expect(bindingOf('grpc://127.0.0.1:50051/slow')).toBe('GRPC');
    expect(bindingOf('http://127.0.0.1:3000/a2a/slow')).toBe('JSONRPC');
  });

  it('count as the origin of their base URL for the credentials rule', () => {
    expect(credentialOriginOf('rest+https://a.example.com:8443/api')).toBe('https://a.example.com:8443');
    expect(credentialOriginOf('grpc://10.0.0.5:50051/slow')).toBe('http://10.0.0.5:50051');
    expect(credentialOriginOf('https://a.example.com/a2a')).toBe('https://a.example.com');
  });
});

describe('choosing an HTTP+JSON interface from a card', () => {
  const cardUrl = 'http://127.0.0.1:3000/.well-known/agent-card.json';
  const rest = { url: '/api', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 't1' };
  const grpc = { url: '127.0.0.1:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' };
  const jsonrpc = { url: 'http://127.0.0.1:3000/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };

  it('an HTTP+JSON-only card gives its interface (relative URL resolved, tenant appended)', () => {
    const info = describeCard({ name: 'r', supportedInterfaces: [rest] }, cardUrl);
    expect(chooseInterface(info, 'http://127.0.0.1:3000')).toEqual({ version: '1.0', url: 'rest+http://127.0.0.1:3000/api/t1' });
    expect(info.otherBindings).toEqual([]);
  });

  it('JSON-RPC is preferred over HTTP+JSON, and HTTP+JSON over gRPC, whatever the card order', () => {
    expect(chooseInterface(describeCard({ name: 'r', supportedInterfaces: [grpc, rest, jsonrpc] }, cardUrl), cardUrl).url).toBe('http://127.0.0.1:3000/rpc');
    expect(chooseInterface(describeCard({ name: 'r', supportedInterfaces: [grpc, rest] }, cardUrl), cardUrl).url).toBe('rest+http://127.0.0.1:3000/api/t1');
  });

  it('HTTP+JSON 0.3 (other paths) is not spoken: the error names what is offered', () => {
    const info = describeCard({ name: 'r', supportedInterfaces: [{ ...rest, protocolVersion: '0.3' }] }, cardUrl);
    expect(info.interfaces).toEqual([]);
    expect(() => chooseInterface(info, 'http://127.0.0.1:3000')).toThrow(/offers no interface we speak \(JSON-RPC, HTTP\+JSON 1\.0, gRPC 1\.0; offered: HTTP\+JSON 0\.3\)/);
  });
});

describe('HTTP+JSON answers', () => {
  const aip193 = (status: number, name: string, reason?: string) =>
    JSON.stringify({ error: { code: status, status: name, message: 'no task t1', details: reason ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }] : [] } });

  it('an ErrorInfo reason becomes the JSON-RPC error a JSON-RPC peer would send', () => {
    const err = (() => { try { parseRestBody(409, aip193(409, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE')); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).code).toBe(-32002);
    expect((err as RpcError).message).toBe('no task t1');
  });

  it('without an ErrorInfo the status name decides; a bare 404 page is a transport error', () => {
    expect(() => parseRestBody(404, aip193(404, 'NOT_FOUND'))).toThrow(expect.objectContaining({ code: -32001 }));
    expect(() => parseRestBody(404, '<html>not here</html>')).toThrow(TransportError);
    expect(() => parseRestBody(401, '{}', 'Bearer')).toThrow(/credentials refused \(WWW-Authenticate: Bearer\)/);
    expect(parseRestBody(200, '{"task":{"id":"t"}}')).toEqual({ task: { id: 't' } });
  });
});
