/**
 * The gRPC client binding (v1.0 only), for peers whose card offers no JSON-RPC interface: the
 * same calls as json-rpc.ts (a v1.0 method name, ProtoJSON params, the ProtoJSON result) over
 * `lf.a2a.v1.A2AService`, with the same clocks (a total timeout per call, an idle timeout per
 * stream), metrics and trace context, to a `grpc://host:port/<tenant>` endpoint (grpc-endpoint.ts).
 */
import { Client, credentials, Metadata, status as GrpcStatus, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { decodeErrorInfo, decodeStatus } from '@a2a-js/sdk/errors/grpc';
import { A2A_GRPC_SERVICE, type JsonMethod, type ProtoJson } from './grpc-wire';
import { TransportError } from './http-transport';
import { parseGrpcEndpoint } from './grpc-endpoint';
import { clock, outboundTimer, timedCall, type CallOptions, type RpcTarget } from './json-rpc';
import { statusRpcError } from './status-errors';

function reasonOf(err: ServiceError): string | undefined {
  const bin = err.metadata?.get('grpc-status-details-bin')[0];
  if (!Buffer.isBuffer(bin)) return undefined;
  try {
    return decodeStatus(bin).details.map((d) => decodeErrorInfo(Buffer.from(d.value))).find((info) => info.domain === 'a2a-protocol.org')?.reason;
  } catch {
    return undefined;
  }
}

/** A failed call as json-rpc.ts reports one: RpcError with the A2A code, TransportError, or our own timeout. */
function callError(err: ServiceError, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (err.code === GrpcStatus.UNAUTHENTICATED || err.code === GrpcStatus.PERMISSION_DENIED) {
    return new TransportError(`gRPC ${GrpcStatus[err.code]} from the peer: credentials refused (${err.details})`, err.code === GrpcStatus.UNAUTHENTICATED ? 401 : 403);
  }
  const rpcError = statusRpcError(reasonOf(err), GrpcStatus[err.code], err.details);
  if (rpcError) return rpcError;
  return new TransportError(`gRPC ${GrpcStatus[err.code] ?? err.code} from the peer: ${err.details}`);
}

/** The call's metadata: the peer's auth and extra headers, the trace context and the version, as lowercase keys. */
function metadataFor(target: RpcTarget, trace: Record<string, string>): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries({ ...target.headers, ...trace, 'A2A-Version': '1.0' })) {
    try {
      metadata.set(key.toLowerCase(), value);
    } catch {
      throw new TransportError(`header ${key} cannot be sent as gRPC metadata (keys: a-z, 0-9, '-', '_', '.')`, undefined, true);
    }
  }
  return metadata;
}

interface Prepared {
  definition: JsonMethod;
  request: ProtoJson;
  client: Client;
}

/** The method's definition, the request with the tenant, and a client for the target (one channel per call; closed after). */
function prepare(target: RpcTarget, method: string, params: unknown): Prepared {
  const endpoint = parseGrpcEndpoint(target.endpoint);
  if (!endpoint) throw new TransportError(`not a gRPC endpoint: ${target.endpoint}`, undefined, true);
  if (target.version !== '1.0') throw new TransportError('gRPC is served for A2A 1.0 only', undefined, true);
  const definition = Object.values(A2A_GRPC_SERVICE).find((d) => d.path.endsWith(`/${method}`));
  if (!definition) throw new TransportError(`no gRPC method ${method}`, undefined, true);
  const request = { ...(params as ProtoJson), ...(endpoint.tenant ? { tenant: endpoint.tenant } : {}) };
  return { definition, request, client: new Client(endpoint.target, credentials.createInsecure()) };
}

export function grpcCall(target: RpcTarget, method: string, params: unknown, opts: CallOptions): Promise<unknown> {
  return timedCall(target, method, opts, async (signal, traceHeaders) => {
    const metadata = metadataFor(target, traceHeaders);
    const { client, definition, request } = prepare(target, method, params);
    try {
      return await new Promise<unknown>((resolve, reject) => {
        const call = client.makeUnaryRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, metadata, (err, value) =>
          err ? reject(callError(err, signal)) : resolve(value),
        );
        signal.addEventListener('abort', () => call.cancel(), { once: true });
      });
    } finally {
      client.close();
    }
  });
}

/** A server-streaming call: yields each StreamResponse (ProtoJSON) as a batch of one, as the HTTP streams yield theirs; the idle clock restarts with every message. */
export async function* grpcStream(target: RpcTarget, method: string, params: unknown, opts: CallOptions): AsyncGenerator<unknown[]> {
  const t = clock(opts.timeoutMs, `${method} stream`, opts.signal);
  const timer = outboundTimer(target, method);
  let outcome: 'ok' | 'error' = 'ok';
  let failure: unknown;
  let prepared: Prepared | undefined;
  let call: ClientReadableStream<ProtoJson> | undefined;
  try {
    const metadata = metadataFor(target, timer.headers);
    prepared = prepare(target, method, params);
    const { definition, request } = prepared;
    call = prepared.client.makeServerStreamRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, metadata);
    const cancel = () => call?.cancel();
    t.signal.addEventListener('abort', cancel, { once: true });
    try {
      for await (const message of call as AsyncIterable<ProtoJson>) {
        t.touch();
        yield [message];
      }
    } catch (err) {
      throw callError(err as ServiceError, t.signal);
    }
  } catch (err) {
    outcome = 'error';
    failure = err;
    throw err;
  } finally {
    t.clear(true);
    call?.cancel();
    prepared?.client.close();
    timer.done(outcome, failure);
  }
}
