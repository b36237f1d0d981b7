import { describe, expect, it } from 'vitest';
import { grpcCredentialOrigin, grpcEndpoint, parseGrpcEndpoint } from './grpc-endpoint';
import { chooseInterface, describeCard } from './agent-card';

describe('gRPC endpoints', () => {
  it('carry the target and the tenant, and read back', () => {
    expect(grpcEndpoint('10.0.0.5:50051', 'slow')).toBe('grpc://10.0.0.5:50051/slow');
    expect(grpcEndpoint('https://grpc.example.com:443', '')).toBe('grpc://grpc.example.com:443');
    expect(grpcEndpoint('dns:///grpc.example.com:8443', 'a b')).toBe('grpc://grpc.example.com:8443/a%20b');
    expect(parseGrpcEndpoint('grpc://grpc.example.com:8443/a%20b')).toEqual({ target: 'grpc.example.com:8443', tenant: 'a b' });
    expect(parseGrpcEndpoint('grpc://[::1]:50051')).toEqual({ target: '[::1]:50051', tenant: '' });
    expect(parseGrpcEndpoint('http://127.0.0.1:3000/a2a')).toBeNull();
  });

  it('count as the plaintext origin of their target for the credentials rule', () => {
    expect(grpcCredentialOrigin('grpc://10.0.0.5:50051/slow')).toBe('http://10.0.0.5:50051');
    expect(grpcCredentialOrigin('https://a.example.com/a2a')).toBeNull();
  });
});

describe('choosing a gRPC interface from a card', () => {
  const grpc = { url: '127.0.0.1:50051', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'slow' };

  it('a gRPC-only card gives its gRPC 1.0 interface, with the tenant', () => {
    const info = describeCard({ name: 'g', supportedInterfaces: [grpc] }, 'http://127.0.0.1:3000/.well-known/agent-card.json');
    expect(chooseInterface(info, 'http://127.0.0.1:3000')).toEqual({ version: '1.0', url: 'grpc://127.0.0.1:50051/slow' });
    expect(info.otherBindings).toEqual([]);
  });

  it('JSON-RPC stays preferred when the card offers both, whatever the order', () => {
    const jsonrpc = { url: 'http://127.0.0.1:3000/a2a/slow', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
    const info = describeCard({ name: 'g', supportedInterfaces: [grpc, jsonrpc] }, 'http://127.0.0.1:3000/a2a/slow/.well-known/agent-card.json');
    expect(chooseInterface(info, 'http://127.0.0.1:3000/a2a/slow').url).toBe('http://127.0.0.1:3000/a2a/slow');
  });

  it('gRPC 0.3 (another proto) is not spoken: listed among the other bindings', () => {
    const info = describeCard({ name: 'g', supportedInterfaces: [{ ...grpc, protocolVersion: '0.3' }] }, 'http://127.0.0.1:3000/.well-known/agent-card.json');
    expect(info.interfaces).toEqual([]);
    expect(() => chooseInterface(info, 'http://127.0.0.1:3000')).toThrow(/offered: GRPC 0.3/);
  });
});
