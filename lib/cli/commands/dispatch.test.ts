import { describe, expect, it } from 'vitest';
import { DispatchRequestSchema } from '../../engine/outbound/dispatch';
import { targetOf } from './dispatch';

describe('switchboard dispatch <peer|url>', () => {
  it("sends a task's recorded gRPC and HTTP+JSON endpoints as a URL, which the server's dispatch takes", () => {
    for (const url of ['grpc://127.0.0.1:50051', 'grpc://agents.example:443/tenant-a', 'rest+http://127.0.0.1:8080/a2a', 'rest+https://agents.example/v1']) {
      expect(targetOf(url)).toEqual({ url });
      expect(DispatchRequestSchema.safeParse({ ...targetOf(url), text: 'hi' }).success).toBe(true);
    }
  });

  it('keeps http(s) URLs as URLs and names as peers', () => {
    expect(targetOf('https://agents.example/a2a')).toEqual({ url: 'https://agents.example/a2a' });
    expect(targetOf('research.v2')).toEqual({ peer: 'research.v2' });
  });

  it('sends a malformed endpoint as a URL, so the server refuses it with the reason instead of looking for a peer', () => {
    expect(targetOf('grpc://no-port')).toEqual({ url: 'grpc://no-port' });
    const refused = DispatchRequestSchema.safeParse({ ...targetOf('grpc://no-port'), text: 'hi' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toContain('grpc://');
  });
});
