/**
 * The spans Switchboard makes (docs/observability.md): one per task, from its creation to the
 * terminal claim, kept in memory by task id so the detached part stays in it; `invoke_agent`
 * per agent turn; one CLIENT span per outbound A2A call, whose context goes out as
 * `traceparent`. With tracing off each helper returns at its first line; outbound calls then
 * still forward the stored trace context, so a trace begun upstream is not cut here.
 */
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { parseTraceparent, traceHeaders, type TraceContext } from '../protocol/trace-context';
import { appPart } from '../process-singleton';
import { tracingState, type LoadedTracing } from './provider';
import { urlWithoutSecrets } from '../util/safe-url';

/** Live task spans by task id (only while tracing is on). */
const liveSpans = () => appPart('taskSpans', () => new Map<string, Span>());

const on = (): LoadedTracing | null => tracingState().loaded;

function remoteContext(t: LoadedTracing, ctx: TraceContext | null | undefined): Context {
  const parsed = parseTraceparent(ctx?.traceparent);
  if (!parsed) return t.api.ROOT_CONTEXT;
  return t.api.trace.setSpanContext(t.api.ROOT_CONTEXT, {
    traceId: parsed.traceId,
    spanId: parsed.spanId,
    traceFlags: parseInt(parsed.flags, 16),
    isRemote: true,
    ...(ctx?.tracestate ? { traceState: t.api.createTraceState(ctx.tracestate) } : {}),
  });
}

export function contextOfSpan(span: Span): TraceContext {
  const sc = span.spanContext();
  const tracestate = sc.traceState?.serialize();
  return { traceparent: `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags.toString(16).padStart(2, '0')}`, ...(tracestate ? { tracestate } : {}) };
}

function parentOf(t: LoadedTracing, taskId: string, stored: TraceContext | null | undefined): Context {
  const live = liveSpans().get(taskId);
  return live ? t.api.trace.setSpan(t.api.ROOT_CONTEXT, live) : remoteContext(t, stored);
}

export interface TaskSpanStart {
  taskId: string;
  contextId: string;
  direction: 'inbound' | 'outbound';
  /** Inbound: the served agent; outbound: the peer (name or URL). */
  target: string;
  /** The caller's context (inbound) or the parent task's (outbound). */
  parent?: TraceContext | null;
  method?: string;
  resumed?: boolean;
}

/**
 * Starts the task's span; returns the context to store on the task (its own when tracing is on,
 * else the parent's, passed on unchanged).
 */
export function beginTaskSpan(s: TaskSpanStart): TraceContext | undefined {
  const t = on();
  if (!t) return s.parent ?? undefined;
  const attributes: Attributes = {
    'a2a.task.id': s.taskId,
    'a2a.context.id': s.contextId,
    'a2a.direction': s.direction,
    ...(s.method ? { 'a2a.method': s.method } : {}),
    ...(s.direction === 'inbound' ? { 'gen_ai.agent.name': s.target } : { 'server.address': urlWithoutSecrets(s.target) }),
    ...(s.resumed ? { 'switchboard.resumed': true } : {}),
  };
  const name = s.direction === 'inbound' ? `a2a.task ${s.target}` : `a2a.dispatch ${urlWithoutSecrets(s.target)}`;
  const kind = s.direction === 'inbound' ? t.api.SpanKind.SERVER : t.api.SpanKind.INTERNAL;
  const span = t.tracer.startSpan(name, { kind, attributes }, remoteContext(t, s.parent));
  liveSpans().set(s.taskId, span);
  return contextOfSpan(span);
}

/** A restarted follow continues the stored trace: a new span under the stored context. */
export function resumeTaskSpan(s: TaskSpanStart): void {
  if (!on() || liveSpans().has(s.taskId)) return;
  beginTaskSpan({ ...s, resumed: true });
}

/** Ends the task's span at the terminal claim. */
export function endTaskSpan(taskId: string, state: string, reason?: string): void {
  const t = on();
  if (!t) return;
  const span = liveSpans().get(taskId);
  if (!span) return;
  liveSpans().delete(taskId);
  span.setAttribute('a2a.task.state', state);
  if (reason) span.setAttribute('switchboard.end_reason', reason);
  if (state === 'failed' || state === 'rejected') span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: reason });
  span.end();
}

/** An event on the task's span (detach, resubscribe, poll, reattach...). */
export function taskSpanEvent(taskId: string, name: string, attributes?: Attributes): void {
  if (!on()) return;
  liveSpans().get(taskId)?.addEvent(name, attributes);
}

export interface OpenSpan {
  end(error?: string, attributes?: Attributes): void;
}

const NOOP_SPAN: OpenSpan = { end: () => undefined };

function childSpan(t: LoadedTracing, taskId: string, name: string, kind: number, attributes: Attributes, stored?: TraceContext | null): { span: Span; open: OpenSpan } {
  const span = t.tracer.startSpan(name, { kind, attributes }, parentOf(t, taskId, stored));
  const open: OpenSpan = {
    end: (error, more) => {
      if (more) span.setAttributes(more);
      if (error) span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: error });
      span.end();
    },
  };
  return { span, open };
}

/** `invoke_agent` (OpenTelemetry GenAI agent conventions) around one agent turn. */
export function beginTurnSpan(taskId: string, contextId: string, agent: string): OpenSpan {
  const t = on();
  if (!t) return NOOP_SPAN;
  const attributes = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agent, 'gen_ai.conversation.id': contextId, 'a2a.task.id': taskId };
  return childSpan(t, taskId, `invoke_agent ${agent}`, t.api.SpanKind.INTERNAL, attributes).open;
}

export interface CallSpan extends OpenSpan {
  /** traceparent/tracestate to send with the call. */
  headers: Record<string, string>;
}

/** Where an outbound call belongs: our task and its stored context. */
export interface CallTrace {
  taskId: string;
  context?: TraceContext | null;
}

const NO_CALL: CallSpan = { headers: {}, end: () => undefined };

/** A CLIENT span per outbound A2A call; its context is the traceparent the peer gets. */
export function beginCallSpan(trace: CallTrace | undefined, method: string, endpoint: string): CallSpan {
  if (!trace) return NO_CALL;
  const t = on();
  if (!t) return trace.context ? { headers: traceHeaders(trace.context), end: NOOP_SPAN.end } : NO_CALL;
  const attributes = { 'rpc.system': 'jsonrpc', 'rpc.method': method, 'a2a.method': method, 'a2a.task.id': trace.taskId, 'url.full': urlWithoutSecrets(endpoint) };
  const { span, open } = childSpan(t, trace.taskId, `a2a.client ${method}`, t.api.SpanKind.CLIENT, attributes, trace.context);
  return { headers: traceHeaders(contextOfSpan(span)), end: open.end };
}

/**
 * A push delivery (one webhook POST, with retries as its duration); its headers carry the
 * delivery span's context, or with tracing off the task's stored one, like an outbound call.
 */
export function beginPushSpan(taskId: string, url: string, stored: TraceContext | null | undefined): CallSpan {
  const t = on();
  if (!t) return stored ? { headers: traceHeaders(stored), end: NOOP_SPAN.end } : NO_CALL;
  const { span, open } = childSpan(t, taskId, 'a2a.push', t.api.SpanKind.CLIENT, { 'a2a.task.id': taskId, 'url.full': urlWithoutSecrets(url) }, stored);
  return { headers: traceHeaders(contextOfSpan(span)), end: open.end };
}

declare module '../process-singleton' {
  interface AppParts {
    /** Open task spans. */
    taskSpans: Map<string, Span>;
  }
}
