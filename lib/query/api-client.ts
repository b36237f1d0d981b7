/**
 * The browser's only way to call the dashboard API. Every answer is checked against its wire
 * schema; every failure becomes the one ClientError (lib/protocol/client-error.ts) carrying the API's {code, message, field},
 * so forms can show a validation error at the field it names.
 */
import type { z } from 'zod';
import { ApiErrorSchema } from '@/lib/dashboard/wire';
import { ClientError } from '@/lib/protocol/client-error';

type QueryValue = string | number | boolean | null | undefined;

export function withQuery(path: string, params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

async function errorFrom(res: Response): Promise<ClientError> {
  const body: unknown = await res.json().catch(() => null);
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) return new ClientError(res.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.field);
  return new ClientError(res.status, 'http_error', `request failed with HTTP ${res.status}`);
}

async function request<T>(path: string, schema: z.ZodType<T>, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, { ...init, headers: { Accept: 'application/json', ...init.headers }, cache: 'no-store' });
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return schema.parse(undefined);
  return schema.parse(await res.json());
}

export function apiGet<T>(path: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
  return request(path, schema, { signal });
}

export function apiSend<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  return request(path, schema, {
    method,
    // A label for the door (a cancel's reason says "from the dashboard"); it grants nothing.
    headers: { 'X-Switchboard-Client': 'dashboard', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
