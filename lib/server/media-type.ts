/** `application/json`, or any `+json` type (`application/a2a+json`), parameters allowed. */
export function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}
