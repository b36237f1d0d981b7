import { describe, expect, it } from 'vitest';
import { headersFor } from './resolve';

describe('credentials for a gRPC endpoint', () => {
  const credentials = { origins: ['http://peer.example:3000', 'http://peer.example:50051'], headers: { Authorization: 'Bearer k' } };

  it('go to its target only when that origin (http://host:port) is allowed', () => {
    expect(headersFor({ credentials }, 'grpc://peer.example:50051/agent')).toEqual({ Authorization: 'Bearer k' });
    expect(headersFor({ credentials: { ...credentials, origins: ['http://peer.example:3000'] } }, 'grpc://peer.example:50051/agent')).toEqual({});
    expect(headersFor({ credentials }, 'grpc://elsewhere.example:50051')).toEqual({});
  });
});
