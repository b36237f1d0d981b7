/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) as Switchboard carries it: the
 * `traceparent`/`tracestate` headers on every A2A request, and the same two values in message
 * metadata under `switchboard.trace` for peers that drop headers. The delegation parent travels
 * beside it under `switchboard.parentTask`. Pure functions, no OpenTelemetry SDK.
 */

export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** tracestate: at most 32 list members, 512 characters (the spec's limits). */
const MAX_TRACESTATE = 512;

export interface ParsedTraceparent {
  traceId: string;
  spanId: string;
  flags: string;
}

export function parseTraceparent(value: string | null | undefined): ParsedTraceparent | null {
  const m = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!m || m[1] === ZERO_TRACE || m[2] === ZERO_SPAN) return null;
  return { traceId: m[1], spanId: m[2], flags: m[3] };
}

/**
 * A tracestate list member (W3C Trace Context §3.3.1): `key=value`, the key lowercase
 * (`tenant@system` allowed), the value printable ASCII without `,` and `=`, not ending in a space.
 */
const TRACESTATE_MEMBER = /^(?:[a-z][a-z0-9_*/-]{0,255}|[a-z0-9][a-z0-9_*/-]{0,240}@[a-z][a-z0-9_*/-]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const MAX_TRACESTATE_MEMBERS = 32;

/**
 * The tracestate as the spec's grammar allows it, or undefined. Anything else (CR LF, NUL,
 * non-ASCII, more than 32 members) is discarded whole, as the spec says a parser must: such a
 * value is not a valid header, and sent on it made every push and dispatch of the task fail.
 */
export function validTracestate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_TRACESTATE) return undefined;
  const members = value.split(',').map((m) => m.replace(/^[ \t]+|[ \t]+$/g, '')).filter((m) => m !== '');
  if (!members.length || members.length > MAX_TRACESTATE_MEMBERS || !members.every((m) => TRACESTATE_MEMBER.test(m))) return undefined;
  return members.join(',');
}

/** A valid context from raw values, or undefined (an invalid traceparent is ignored, per spec). */
export function traceContextOf(traceparent: unknown, tracestate: unknown): TraceContext | undefined {
  if (typeof traceparent !== 'string' || !parseTraceparent(traceparent)) return undefined;
  const state = validTracestate(tracestate);
  return { traceparent: traceparent.trim().toLowerCase(), ...(state ? { tracestate: state } : {}) };
}

export const traceIdOf = (ctx: TraceContext | null | undefined): string | null => parseTraceparent(ctx?.traceparent)?.traceId ?? null;

/**
 * The HTTP headers for a context (none without one). Checked again here: a context stored before
 * the checks above, or built elsewhere, never puts an unsafe value into a header.
 */
export function traceHeaders(ctx: TraceContext | null | undefined): Record<string, string> {
  const valid = ctx ? traceContextOf(ctx.traceparent, ctx.tracestate) : undefined;
  if (!valid) return {};
  return valid.tracestate ? { traceparent: valid.traceparent, tracestate: valid.tracestate } : { traceparent: valid.traceparent };
}

function switchboardMeta(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const value = metadata?.switchboard;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** `metadata.switchboard.trace` of a message. */
export function traceFromMetadata(metadata: Record<string, unknown> | undefined): TraceContext | undefined {
  const trace = switchboardMeta(metadata)?.trace as Record<string, unknown> | undefined;
  return trace && typeof trace === 'object' ? traceContextOf(trace.traceparent, trace.tracestate) : undefined;
}

/** The delegation parent a calling hub named: `metadata.switchboard.parentTask.taskId`. */
export interface ParentTaskRef {
  taskId: string;
  /** The calling hub's dashboard link for that task, if it gave one. */
  url?: string;
  /** The calling hub's proof that it made this link (lib/auth/parent-proof.ts). */
  proof?: string;
}

const PARENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function parentFromMetadata(metadata: Record<string, unknown> | undefined): ParentTaskRef | undefined {
  const parent = switchboardMeta(metadata)?.parentTask as Record<string, unknown> | undefined;
  if (!parent || typeof parent !== 'object' || typeof parent.taskId !== 'string' || !PARENT_ID.test(parent.taskId)) return undefined;
  const url = typeof parent.url === 'string' && /^https?:\/\//.test(parent.url) && parent.url.length <= 2048 ? parent.url : undefined;
  const proof = typeof parent.proof === 'string' && parent.proof.length <= 64 ? parent.proof : undefined;
  return { taskId: parent.taskId, ...(url ? { url } : {}), ...(proof ? { proof } : {}) };
}

/** Message metadata with the trace and the parent set under `switchboard` (others kept). */
export function withTraceMetadata(metadata: Record<string, unknown> | undefined, trace: TraceContext | undefined, parent: ParentTaskRef | undefined): Record<string, unknown> | undefined {
  if (!trace && !parent) return metadata;
  const own = switchboardMeta(metadata) ?? {};
  return { ...metadata, switchboard: { ...own, ...(trace ? { trace } : {}), ...(parent ? { parentTask: parent } : {}) } };
}

/**
 * tasks/get | GetTask asked with `metadata.switchboard.children: true`: the answer's task then
 * carries its delegation children under `metadata.switchboard.children` (a calling hub draws
 * the remote hops of its tree from it). Opt-in, so a plain get costs nothing more.
 */
export const wantsChildren = (metadata: Record<string, unknown> | undefined): boolean => switchboardMeta(metadata)?.children === true;

export const CHILDREN_QUERY = { switchboard: { children: true } } as const;

/** The children a peer hub reported on a task (`metadata.switchboard.children`), as given. */
export function childrenFromMetadata(metadata: Record<string, unknown> | undefined): unknown[] | undefined {
  const children = switchboardMeta(metadata)?.children;
  return Array.isArray(children) ? children : undefined;
}

/** Task metadata with `switchboard.children` set (others kept). */
export function withChildrenMetadata(metadata: Record<string, unknown> | undefined, children: unknown[]): Record<string, unknown> {
  return { ...metadata, switchboard: { ...switchboardMeta(metadata), children } };
}
