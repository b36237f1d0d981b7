import { describe, expect, it } from 'vitest';
import { dispatchTargetOf } from './agent-targets';

describe("the MCP dispatch tool's target", () => {
  it("takes a task's recorded gRPC and HTTP+JSON endpoints as a URL, not as a peer name", async () => {
    for (const url of ['grpc://127.0.0.1:50051', 'grpc://agents.example:443/tenant-a', 'rest+http://127.0.0.1:8080/a2a', 'rest+https://agents.example/v1/t1']) {
      expect(await dispatchTargetOf(url)).toEqual({ url });
    }
    expect(await dispatchTargetOf('http://127.0.0.1:3000/a2a/echo')).toEqual({ url: 'http://127.0.0.1:3000/a2a/echo' });
  });
});
