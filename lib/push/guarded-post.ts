/**
 * The one outbound path for webhooks: the SSRF guard runs at connect time. A host name is
 * resolved by our own `lookup`, which checks every address it got and hands the socket only a
 * checked one, so the address connected to is the address checked (no second resolution a
 * rebinding DNS server could answer differently). IP literals skip DNS in Node, so they are
 * checked here before connecting. Redirects are never followed (node:http does not).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseIpLiteral, refuseAddress, type PushAllowlist } from './address-policy';

/** The target was refused by the address policy; nothing was sent. */
export class WebhookRefusedError extends Error {
  readonly code = 'ESSRF';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A dns.lookup that fails unless every address the name resolves to is allowed. */
export function guardedLookup(allowlist: PushAllowlist): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.map((a) => refuseAddress(a.address, allowlist)).find((r) => r !== null);
      if (refused) return callback(new WebhookRefusedError(`${hostname} resolves to a refused address: ${refused}`), []);
      if (!addresses.length) return callback(new WebhookRefusedError(`${hostname} resolves to no address`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as LookupFunction;
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowlist: PushAllowlist;
}

/** POSTs the body; resolves with the HTTP status, rejects on a refusal or a network error. */
export function postWebhook(post: WebhookPost): Promise<number> {
  const url = new URL(post.url);
  const allowedHost = post.allowlist.allowsHost(url.hostname);
  const literal = parseIpLiteral(url.hostname);
  if (literal && !allowedHost) {
    const refused = refuseAddress(literal, post.allowlist);
    if (refused) return Promise.reject(new WebhookRefusedError(`refused address: ${refused}`));
  }
  const lib = url.protocol === 'https:' ? https : http;
  const headers = { ...post.headers, 'Content-Length': String(Buffer.byteLength(post.body)) };
  return new Promise((resolve, reject) => {
    const request = lib.request(url, {
      method: 'POST',
      headers,
      agent: false,
      signal: AbortSignal.timeout(post.timeoutMs),
      ...(allowedHost ? {} : { lookup: guardedLookup(post.allowlist) }),
    });
    request.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(post.body);
  });
}
