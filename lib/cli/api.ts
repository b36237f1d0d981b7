/**
 * The CLI's HTTP client for a running Switchboard (SWITCHBOARD_URL, SWITCHBOARD_TOKEN as a
 * Bearer token, so the dashboard's role rules apply unchanged). Every failure becomes a CliError
 * that says what went wrong in the operator's terms and carries the exit code.
 */
import type { z } from 'zod';
import { ApiErrorSchema } from '../dashboard/wire';
import { EXIT, type ExitCode } from './exit-codes';
import { CLIENT_LABEL_HEADER } from '../api/client-label';

export const DEFAULT_URL = 'http://127.0.0.1:3000';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly code = 'error',
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface ApiTarget {
  baseUrl: string;
  token?: string;
}

export function apiTarget(urlOption: string | undefined, env: NodeJS.ProcessEnv = process.env): ApiTarget {
  const raw = (urlOption ?? env.SWITCHBOARD_URL ?? DEFAULT_URL).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`SWITCHBOARD_URL: "${raw}" is not an absolute http(s) URL`, EXIT.usage, 'bad_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`SWITCHBOARD_URL: "${raw}" is not an http(s) URL`, EXIT.usage, 'bad_url');
  return { baseUrl: url.toString().replace(/\/+$/, ''), token: env.SWITCHBOARD_TOKEN?.trim() || undefined };
}

/** What a connection failure was, in words (undici hides the errno in `cause`). */
function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

export function unreachable(target: ApiTarget, err: unknown): CliError {
  return new CliError(
    `cannot reach Switchboard at ${target.baseUrl} (${networkReason(err)}); is it running? Set SWITCHBOARD_URL to its address.`,
    EXIT.unreachable,
    'unreachable',
  );
}

export function headersFor(target: ApiTarget, extra: Record<string, string> = {}): Record<string, string> {
  // The label says which door an action came through (a cancel's reason); it grants nothing.
  return { ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}), [CLIENT_LABEL_HEADER]: 'cli', ...extra };
}

/** Turns a refusal into a CliError; `subject` names what a 404 was about ("peer research"). */
export async function refusal(target: ApiTarget, res: Response, subject?: string): Promise<CliError> {
  const body: unknown = await res.json().catch(() => null);
  const parsed = ApiErrorSchema.safeParse(body);
  const error = parsed.success ? parsed.data.error : { code: 'http_error', message: `HTTP ${res.status}` };
  if (res.status === 401) {
    const hint = target.token ? 'SWITCHBOARD_TOKEN was refused' : 'this Switchboard needs a token: set SWITCHBOARD_TOKEN';
    return new CliError(`${hint} (401 ${error.message}); use the operator or viewer token the server was started with`, EXIT.auth, 'unauthenticated');
  }
  if (res.status === 403) return new CliError(`refused (403): ${error.message}; SWITCHBOARD_TOKEN must be the operator token`, EXIT.auth, error.code);
  if (res.status === 404) {
    const hint = error.code === 'unknown_peer' ? '; list them with: switchboard peers ls' : '';
    return new CliError(`unknown ${subject ?? 'resource'}: ${error.message}${hint}`, EXIT.notFound, error.code);
  }
  const field = parsed.success && parsed.data.error.field ? ` (field ${parsed.data.error.field})` : '';
  return new CliError(`${error.message}${field}`, EXIT.error, error.code);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Names the thing a 404 is about, e.g. `task abc`. */
  subject?: string;
  signal?: AbortSignal;
}

export async function apiRequest<T>(target: ApiTarget, path: string, schema: z.ZodType<T>, opts: RequestOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${target.baseUrl}${path}`, {
      method: opts.method ?? 'GET',
      headers: headersFor(target, { Accept: 'application/json', ...(opts.body === undefined ? {} : { 'Content-Type': 'application/json' }) }),
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw unreachable(target, err);
  }
  if (!res.ok) throw await refusal(target, res, opts.subject);
  if (res.status === 204) return schema.parse(undefined);
  const parsed = schema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new CliError(`unexpected answer from ${path}: is ${target.baseUrl} a Switchboard?`, EXIT.error, 'bad_answer');
  return parsed.data;
}
