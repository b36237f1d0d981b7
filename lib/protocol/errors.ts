/**
 * A2A JSON-RPC errors (the A2A specification). Thrown anywhere below the route; the JSON-RPC layer
 * renders them in the caller's version (v1.0 adds google.rpc.ErrorInfo in error.data).
 */
import type { ProtocolVersion } from './types';

/**
 * Each error with its JSON-RPC code, its HTTP+JSON status and its gRPC status (v1.0 §5.4's gRPC
 * column; also AIP-193's `status` in HTTP+JSON bodies): NOT_FOUND, FAILED_PRECONDITION,
 * UNIMPLEMENTED (push not supported, unsupported operation, version not supported),
 * INVALID_ARGUMENT, INTERNAL; clients tell the errors that share one apart by the ErrorInfo
 * reason (decisions 189, 240).
 */
export const A2A_ERRORS = {
  parse: { code: -32700, reason: 'PARSE_ERROR', message: 'Invalid JSON payload', http: 400, status: 'INVALID_ARGUMENT' },
  invalidRequest: { code: -32600, reason: 'INVALID_REQUEST', message: 'Request payload validation error', http: 400, status: 'INVALID_ARGUMENT' },
  methodNotFound: { code: -32601, reason: 'METHOD_NOT_FOUND', message: 'Method not found', http: 404, status: 'NOT_FOUND' },
  invalidParams: { code: -32602, reason: 'INVALID_PARAMS', message: 'Invalid parameters', http: 400, status: 'INVALID_ARGUMENT' },
  internal: { code: -32603, reason: 'INTERNAL', message: 'Internal error', http: 500, status: 'INTERNAL' },
  taskNotFound: { code: -32001, reason: 'TASK_NOT_FOUND', message: 'Task not found', http: 404, status: 'NOT_FOUND' },
  taskNotCancelable: { code: -32002, reason: 'TASK_NOT_CANCELABLE', message: 'Task cannot be canceled', http: 409, status: 'FAILED_PRECONDITION' },
  pushNotSupported: { code: -32003, reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED', message: 'Push Notification is not supported', http: 400, status: 'UNIMPLEMENTED' },
  unsupportedOperation: { code: -32004, reason: 'UNSUPPORTED_OPERATION', message: 'This operation is not supported', http: 400, status: 'UNIMPLEMENTED' },
  contentTypeNotSupported: { code: -32005, reason: 'CONTENT_TYPE_NOT_SUPPORTED', message: 'Incompatible content types', http: 415, status: 'INVALID_ARGUMENT' },
  invalidAgentResponse: { code: -32006, reason: 'INVALID_AGENT_RESPONSE', message: 'Invalid agent response', http: 502, status: 'INTERNAL' },
  extendedCardNotConfigured: { code: -32007, reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', message: 'Authenticated Extended Card is not configured', http: 400, status: 'FAILED_PRECONDITION' },
  extensionSupportRequired: { code: -32008, reason: 'EXTENSION_SUPPORT_REQUIRED', message: 'Extension support required', http: 400, status: 'FAILED_PRECONDITION' },
  versionNotSupported: { code: -32009, reason: 'VERSION_NOT_SUPPORTED', message: 'Version not supported', http: 400, status: 'UNIMPLEMENTED' },
  // Switchboard's own (A2A defines none for limits; -32000..-32099 is JSON-RPC's server range, decision 212).
  quotaExceeded: { code: -32029, reason: 'QUOTA_EXCEEDED', message: 'Quota exceeded', http: 429, status: 'RESOURCE_EXHAUSTED' },
} as const;

export type A2AErrorKind = keyof typeof A2A_ERRORS;

export class A2AError extends Error {
  readonly code: number;
  readonly reason: string;
  constructor(
    readonly kind: A2AErrorKind,
    detail?: string,
    readonly metadata: Record<string, string> = {},
  ) {
    const base = A2A_ERRORS[kind];
    super(detail ? `${base.message}: ${detail}` : base.message);
    this.code = base.code;
    this.reason = base.reason;
  }
}

/** A per-caller limit reached; `retryAfterSeconds` when waiting helps (it becomes Retry-After). */
export function quotaExceeded(detail: string, retryAfterSeconds?: number): A2AError {
  return new A2AError('quotaExceeded', detail, retryAfterSeconds === undefined ? {} : { retryAfterSeconds: String(retryAfterSeconds) });
}

/** The Retry-After header an error's answer carries, on every HTTP binding. */
export function retryAfterHeaders(err: A2AError): Record<string, string> {
  const seconds = err.metadata.retryAfterSeconds;
  return seconds ? { 'Retry-After': seconds } : {};
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

const errorInfo = (err: A2AError) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason: err.reason,
  domain: 'a2a-protocol.org',
  metadata: err.metadata,
});

export function toJsonRpcError(err: A2AError, version: ProtocolVersion): JsonRpcErrorObject {
  if (version === '0.3') return { code: err.code, message: err.message };
  return { code: err.code, message: err.message, data: [errorInfo(err)] };
}

/** The HTTP status of an error on the HTTP+JSON binding. */
export const httpStatusOf = (err: A2AError): number => A2A_ERRORS[err.kind].http;

/** The HTTP+JSON error body (v1.0 §11.6, AIP-193): `{error: {code, status, message, details}}`. */
export function toRestError(err: A2AError) {
  const def = A2A_ERRORS[err.kind];
  return { error: { code: def.http, status: def.status, message: err.message, details: [errorInfo(err)] } };
}

/**
 * The one answer for a task the caller cannot see: it does not exist, or it is outside the
 * caller's scope. Both must read the same, so task ids cannot be probed.
 */
export function taskNotFound(taskId: string): A2AError {
  return new A2AError('taskNotFound', `no task ${taskId}`);
}
