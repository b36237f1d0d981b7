/** The throttle's source is the address the server saw, not a header the caller wrote. */
import { describe, expect, it } from 'vitest';
import { sourceOf } from './login-throttle';
import { REMOTE_ADDRESS_HEADER } from './remote-address';

const headers = (values: Record<string, string>) => new Headers(values);

describe('sourceOf', () => {
  it('ignores a caller-written X-Forwarded-For unless a proxy is trusted', () => {
    const forged = headers({ 'x-forwarded-for': '203.0.113.9', [REMOTE_ADDRESS_HEADER]: '127.0.0.1' });
    expect(sourceOf(forged, false)).toBe('src:127.0.0.1');
    expect(sourceOf(headers({ 'x-forwarded-for': '198.51.100.1', [REMOTE_ADDRESS_HEADER]: '127.0.0.1' }), false)).toBe(sourceOf(forged, false));
  });

  it('behind a trusted proxy, the last X-Forwarded-For entry (the one the proxy appended)', () => {
    expect(sourceOf(headers({ 'x-forwarded-for': '203.0.113.9, 10.0.0.2', [REMOTE_ADDRESS_HEADER]: '10.0.0.1' }), true)).toBe('src:10.0.0.2');
  });

  it('an unknown source when the server stamped none', () => {
    expect(sourceOf(headers({}), false)).toBe('src:unknown');
  });
});
