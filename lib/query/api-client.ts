/**
 * The browser's only way to call the dashboard API. Every answer is checked against its wire
 * schema; every failure becomes an ApiRequestError carrying the API's {code, message, field},
 * so forms can show a validation error at the field it names.
 */
import type { z } from 'zod';
import { ApiErrorSchema } from '@/lib/dashboard/wire';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

type QueryValue = string | number | boolean | null | undefined;

export function withQuery(path: string, params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

async function errorFrom(res: Response): Promise<ApiRequestError> {
  const body: unknown = await res.json().catch(() => null);
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) return new ApiRequestError(res.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.field);
  return new ApiRequestError(res.status, 'http_error', `request failed with HTTP ${res.status}`);
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
