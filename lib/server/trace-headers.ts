/** The W3C trace context an inbound A2A request carries (an invalid traceparent is ignored). */
import { traceContextOf, type TraceContext } from '../protocol/trace-context';
import type { HeaderCarrier } from '../auth/api-keys';

export function inboundTrace(req: HeaderCarrier): TraceContext | undefined {
  const traceparent = req.headers.get('traceparent');
  return traceparent ? traceContextOf(traceparent, req.headers.get('tracestate')) : undefined;
}
