/**
 * The reference gRPC client (@a2a-js/sdk 1.3.0's GrpcTransportFactory) against a running app:
 * the client reads the v1.0 card, picks its GRPC interface (target and tenant) and speaks
 * `lf.a2a.v1.A2AService` to it. Nothing here knows our wire.
 */
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import { decodeErrorInfo, decodeStatus } from '@a2a-js/sdk/errors/grpc';
import { SendMessageRequest } from '@a2a-js/sdk';
import { Client as GrpcClient, credentials, Metadata } from '@grpc/grpc-js';

/** A client that can only speak gRPC, so a card without a GRPC interface fails to give one. */
export function grpcOnlyClient(baseUrl: string, slug: string): Promise<Client> {
  return new ClientFactory({ transports: [new GrpcTransportFactory()] }).createFromUrl(`${baseUrl}/a2a/${slug}/`);
}

/** Per-call options carrying an API key as gRPC metadata. */
export const withKey = (key: string) => ({ serviceParameters: { authorization: `Bearer ${key}` } });

/** The gRPC status code and ErrorInfo reason of a failed call (the SDK's GrpcA2AError). */
export async function grpcFailure(call: Promise<unknown>): Promise<{ status: number; name: string; message: string }> {
  try {
    await call;
  } catch (err) {
    const e = err as { status?: number; name?: string; message?: string; cause?: { code?: number } };
    return { status: e.status ?? e.cause?.code ?? -1, name: e.name ?? '', message: e.message ?? '' };
  }
  throw new Error('expected the call to fail');
}

/** What a raw unary call ended with: the status, its details, and the ErrorInfo reason if any. */
export interface RawOutcome {
  code: number;
  details: string;
  reason?: string;
}

/**
 * One unary call with bytes of our choosing and raw metadata (what the reference client would
 * not send: another A2A-Version, bytes that are no message). `method` is the RPC's name.
 */
export function rawGrpcCall(target: string, method: string, bytes: Buffer, metadata: Record<string, string> = {}): Promise<RawOutcome> {
  const client = new GrpcClient(target, credentials.createInsecure());
  const md = new Metadata();
  for (const [key, value] of Object.entries(metadata)) md.set(key, value);
  return new Promise((resolve) => {
    client.makeUnaryRequest(`/lf.a2a.v1.A2AService/${method}`, (b: Buffer) => b, (b: Buffer) => b, bytes, md, (err) => {
      client.close();
      if (!err) return resolve({ code: 0, details: '' });
      const bin = err.metadata?.get('grpc-status-details-bin')[0];
      const info = bin ? decodeStatus(bin as Buffer).details.map((d) => decodeErrorInfo(Buffer.from(d.value))) : [];
      resolve({ code: err.code, details: err.details, reason: info[0]?.reason });
    });
  });
}

/** A SendMessage request's bytes, encoded by the SDK's generated code from ProtoJSON. */
export const sendMessageBytes = (json: Record<string, unknown>): Buffer => A2AService.sendMessage.requestSerialize(SendMessageRequest.fromJSON(json));
