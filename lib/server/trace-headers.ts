/** The W3C trace context an inbound A2A request carries (an invalid traceparent is ignored). */
import { traceContextOf, type TraceContext } from '../protocol/trace-context';

export function inboundTrace(req: Request): TraceContext | undefined {
  const traceparent = req.headers.get('traceparent');
  return traceparent ? traceContextOf(traceparent, req.headers.get('tracestate')) : undefined;
}
