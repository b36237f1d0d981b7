/**
 * A URL as it may be shown outside the hub (span attributes, span names): no user name or
 * password, no query string, no fragment, where a peer's or webhook's secret tends to sit
 * (`https://user:pass@host/…`, `?token=…`). Text that is not a URL is returned as it is.
 */
export function urlWithoutSecrets(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return value;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString();
}

/** Only the origin (`https://hooks.example`), for log lines about a webhook whose path may be its secret. */
export function urlOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return '(not a URL)';
  }
}
