/**
 * A2A errors a peer answers as google.rpc.Status (a gRPC status with its ErrorInfo, or an
 * HTTP+JSON AIP-193 body) become the RpcError a JSON-RPC peer's error object becomes, with the
 * A2A JSON-RPC code, so callers (follow, cancel, resubscribe fallbacks) test one thing.
 */
import { A2A_ERRORS, type A2AErrorKind } from '../protocol/errors';
import { RpcError } from './json-rpc';

const KIND_BY_REASON = new Map<string, A2AErrorKind>(Object.entries(A2A_ERRORS).map(([kind, def]) => [def.reason, kind as A2AErrorKind]));

/** Without an ErrorInfo, the status name alone (what callers test: task not found, unsupported). */
const KIND_BY_STATUS: Record<string, A2AErrorKind> = {
  NOT_FOUND: 'taskNotFound',
  UNIMPLEMENTED: 'methodNotFound',
  INVALID_ARGUMENT: 'invalidParams',
  INTERNAL: 'internal',
};

/** The RpcError for an ErrorInfo reason (domain a2a-protocol.org) or a status name, or null when neither names an A2A error. */
export function statusRpcError(reason: string | undefined, statusName: string | undefined, message: string): RpcError | null {
  const kind = KIND_BY_REASON.get(reason ?? '') ?? KIND_BY_STATUS[statusName ?? ''];
  return kind ? new RpcError(A2A_ERRORS[kind].code, message || A2A_ERRORS[kind].message) : null;
}
