import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config/settings';
import { fromForeignPage, requestOrigin, trustedOpenHost } from './web-origin';

const headers = (values: Record<string, string>) => new Headers(values);
const plain = loadSettings({ NODE_ENV: 'test' });
const proxied = loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TRUST_PROXY: '1' });
const published = loadSettings({ NODE_ENV: 'test', SWITCHBOARD_PUBLIC_URL: 'https://hub.example.com/', SWITCHBOARD_TRUST_PROXY: '1' });

describe('request origin', () => {
  it('trusts X-Forwarded-Host/-Proto only with SWITCHBOARD_TRUST_PROXY', () => {
    const h = headers({ host: '127.0.0.1:3000', 'x-forwarded-host': 'hub.example.org', 'x-forwarded-proto': 'https' });
    expect(requestOrigin(h, 'fallback:1', plain)).toEqual({ url: 'http://127.0.0.1:3000', reflected: true });
    expect(requestOrigin(h, 'fallback:1', proxied)).toEqual({ url: 'https://hub.example.org', reflected: true });
    expect(requestOrigin(h, 'fallback:1', published)).toEqual({ url: 'https://hub.example.com', reflected: false });
  });

  it('never reflects a Host that is not a host name', () => {
    expect(requestOrigin(headers({ host: 'evil.example/"><script>' }), '127.0.0.1:3000', plain).url).toBe('http://127.0.0.1:3000');
  });

  it('tells loopback and public Hosts from rebound ones, and foreign pages from programs', () => {
    expect(trustedOpenHost(headers({ host: '[::1]:3000' }), plain)).toBe(true);
    expect(trustedOpenHost(headers({ host: '127.5.0.1' }), plain)).toBe(true);
    expect(trustedOpenHost(headers({ host: 'rebind.attacker.example' }), plain)).toBe(false);
    expect(trustedOpenHost(headers({ host: 'HUB.example.com' }), published)).toBe(true);
    expect(fromForeignPage(headers({ host: '127.0.0.1:3000' }), plain)).toBe(false);
    expect(fromForeignPage(headers({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }), plain)).toBe(false);
    expect(fromForeignPage(headers({ host: '127.0.0.1:3000', origin: 'null' }), plain)).toBe(true);
    expect(fromForeignPage(headers({ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site' }), plain)).toBe(true);
  });
});
