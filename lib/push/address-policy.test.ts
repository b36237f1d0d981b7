/** The address table of the webhook SSRF guard, both families. */
import { describe, expect, it } from 'vitest';
import { PushAllowlist, refuseAddress } from './address-policy';
import { refuseWebhookTarget } from './webhook-target';

const none = new PushAllowlist([]);

const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.7', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['::ffff:127.0.0.1', 'ipv4Mapped'],
  ['::ffff:7f00:1', 'ipv4Mapped'],
  ['::ffff:169.254.169.254', 'ipv4Mapped'],
  ['::ffff:10.0.0.1', 'ipv4Mapped'],
  ['::ffff:8.8.8.8', 'ipv4Mapped'],
  // ipaddr.js reads the dotted ::a.b.c.d as mapped; URLs and DNS give the hex form below.
  ['::127.0.0.1', 'ipv4Mapped'],
  ['::7f00:1', 'reserved'],
  ['::ffff:0:7f00:1', 'rfc6145'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['64:ff9b::127.0.0.1', 'rfc6052'],
  ['64:ff9b:1::a00:1', 'rfc6052'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2002:7f00:1::1', '6to4'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['100::1', 'discard'],
  ['4000::1', 'reserved'],
];

describe('webhook address policy', () => {
  it.each(REFUSED)('refuses %s (%s)', (address, range) => {
    expect(refuseAddress(address, none)).toMatch(new RegExp(` is a ${range} address$`));
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'])('allows public %s', (address) => {
    expect(refuseAddress(address, none)).toBeNull();
  });

  it('an allowlisted address or range is allowed, also in its IPv4-mapped form', () => {
    const list = new PushAllowlist(['127.0.0.1', '10.0.0.0/8', 'hooks.internal']);
    expect(refuseAddress('127.0.0.1', list)).toBeNull();
    expect(refuseAddress('::ffff:127.0.0.1', list)).toBeNull();
    expect(refuseAddress('10.9.8.7', list)).toBeNull();
    expect(refuseAddress('127.0.0.2', list)).toMatch(/loopback/);
    expect(list.allowsHost('HOOKS.internal')).toBe(true);
  });
});

describe('registration check: syntax and literals only', () => {
  it.each([
    'http://[::ffff:127.0.0.1]:8080/',
    'http://[::ffff:7f00:1]/',
    'http://0.0.0.0:9/',
    'http://0/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[64:ff9b::7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:169.254.169.254]/latest/meta-data',
    'http://100.64.0.1/',
    'http://198.18.0.1/',
    'http://224.0.0.1/',
  ])('refuses the literal %s', (url) => {
    expect(refuseWebhookTarget(url, none)).toMatch(/^url: .* address; add it to SWITCHBOARD_PUSH_ALLOWLIST/);
  });

  it('accepts host names without resolving them (no oracle): an unresolvable name and localhost alike', () => {
    expect(refuseWebhookTarget('https://example.com/webhook', none)).toBeNull();
    expect(refuseWebhookTarget('https://no-such-host.invalid/webhook', none)).toBeNull();
    expect(refuseWebhookTarget('http://localhost:9/hook', none)).toBeNull();
  });

  it('refuses bad syntax, other schemes and credentials in the URL', () => {
    expect(refuseWebhookTarget('not a url', none)).toBe('url: expected an absolute URL');
    expect(refuseWebhookTarget('ftp://example.com/', none)).toBe('url: expected an http(s) URL');
    expect(refuseWebhookTarget('https://u:p@example.com/', none)).toMatch(/credentials in the URL/);
  });
});
