import { describe, expect, it } from 'vitest';
import { traceContextOf, traceHeaders, validTracestate } from './trace-context';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('tracestate (W3C grammar)', () => {
  it('keeps valid lists, trimming optional whitespace and empty members', () => {
    expect(validTracestate('vendor=abc')).toBe('vendor=abc');
    expect(validTracestate(' rojo=00f067aa0ba902b7 ,, congo=t61rcWkgMzE\t')).toBe('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
    expect(validTracestate('tenant1@sys=v a l')).toBe('tenant1@sys=v a l');
  });

  it('discards a value that is not header-safe or not in the grammar', () => {
    for (const bad of ['vendor=a\r\nX-Injected: 1', 'vendor=a\u0000b', 'vendor=😀', 'Vendor=x', 'vendor', 'vendor=a,b', '=x', 'vendor=é']) {
      expect(validTracestate(bad), JSON.stringify(bad)).toBeUndefined();
    }
    expect(validTracestate(Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(','))).toBeUndefined();
    expect(validTracestate(`k=${'v'.repeat(600)}`)).toBeUndefined();
  });

  it('a context keeps its valid traceparent when the tracestate is dropped; headers never carry an unsafe value', () => {
    expect(traceContextOf(PARENT, 'vendor=a\r\nb')).toEqual({ traceparent: PARENT });
    expect(traceHeaders({ traceparent: PARENT, tracestate: 'x=😀' })).toEqual({ traceparent: PARENT });
    expect(traceHeaders({ traceparent: `${PARENT}\r\nX: 1`, tracestate: 'x=1' })).toEqual({});
  });
});
