/**
 * The one configuration loader for environment settings (zod-validated). Every clock and limit
 * is read here and nowhere else; an invalid value stops start-up with a message naming the setting.
 */
import { z } from 'zod';
import { setLogLevel } from '../log';
import { appPart } from '../process-singleton';
import { KEEPALIVE_MAX_MS, KEEPALIVE_MS } from '../protocol/sse-frames';

const seconds = (name: string, max = 86_400) =>
  z
    .string()
    .trim()
    .refine((v) => v !== '' && Number.isFinite(Number(v)) && Number(v) > 0 && Number(v) <= max, {
      message: `${name} must be a positive number of seconds (at most ${max}); fractions such as 0.5 are allowed`,
    })
    .transform((v) => Math.round(Number(v) * 1000));

const positiveInt = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) > 0, { message: `${name} must be a positive whole number` })
    .transform(Number);

const wholeNumber = (name: string, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) <= max, { message: `${name} must be a whole number from 0 to ${max}` })
    .transform(Number);

/**
 * The largest value of a per-caller quota: the shared counters are PostgreSQL `integer`s
 * (rate-limiter-flexible's table), and a counter may pass its limit by what is in flight.
 */
export const MAX_QUOTA = 1024 * 1024 * 1024;

const CLAIM_NAME = /^[A-Za-z0-9_.:/-]{1,100}$/;

const EnvSchema = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: positiveInt('PORT').default(3000),
  SWITCHBOARD_GRPC_PORT: positiveInt('SWITCHBOARD_GRPC_PORT')
    .refine((v) => v <= 65_535, { message: 'SWITCHBOARD_GRPC_PORT must be a TCP port (1-65535)' })
    .optional(),
  SWITCHBOARD_GRPC_PUBLIC_ADDRESS: z
    .string()
    .trim()
    .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'SWITCHBOARD_GRPC_PUBLIC_ADDRESS must be host:port (the gRPC target peers use, e.g. grpc.example.com:443)')
    .optional(),
  DATABASE_URL: z.string().trim().min(1).default('file:./data/switchboard.db'),
  SWITCHBOARD_PUBLIC_URL: z.url({ message: 'SWITCHBOARD_PUBLIC_URL must be an absolute http(s) URL' }).optional(),
  SWITCHBOARD_RESPONSE_WINDOW: seconds('SWITCHBOARD_RESPONSE_WINDOW').default(300_000),
  SWITCHBOARD_LATE_RESULT_GRACE: seconds('SWITCHBOARD_LATE_RESULT_GRACE').default(1_800_000),
  SWITCHBOARD_CLIENT_TIMEOUT: seconds('SWITCHBOARD_CLIENT_TIMEOUT').default(330_000),
  SWITCHBOARD_FOLLOW_LIMIT: seconds('SWITCHBOARD_FOLLOW_LIMIT', 7 * 86_400).default(86_400_000),
  SWITCHBOARD_DRAIN: seconds('SWITCHBOARD_DRAIN', 3600).default(10_000),
  SWITCHBOARD_BLOCKING_KEEPALIVE: seconds('SWITCHBOARD_BLOCKING_KEEPALIVE', 60).default(5_000),
  SWITCHBOARD_SEND_DEDUP_WINDOW: seconds('SWITCHBOARD_SEND_DEDUP_WINDOW', 30 * 86_400).default(86_400_000),
  SWITCHBOARD_MAX_BODY_BYTES: positiveInt('SWITCHBOARD_MAX_BODY_BYTES').default(1_048_576),
  SWITCHBOARD_CONFIG: z.string().trim().min(1).optional(),
  SWITCHBOARD_PUSH_ALLOWLIST: z.string().default(''),
  SWITCHBOARD_OPERATOR_TOKEN: z.string().min(16, 'SWITCHBOARD_OPERATOR_TOKEN must be at least 16 characters').optional(),
  SWITCHBOARD_VIEWER_TOKEN: z.string().min(16, 'SWITCHBOARD_VIEWER_TOKEN must be at least 16 characters').optional(),
  SWITCHBOARD_METRICS_TOKEN: z.string().min(16, 'SWITCHBOARD_METRICS_TOKEN must be at least 16 characters').optional(),
  SWITCHBOARD_SECRET_KEY: z.string().min(32, 'SWITCHBOARD_SECRET_KEY must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
  SWITCHBOARD_SECRET_KEY_PREVIOUS: z.string().min(32, 'SWITCHBOARD_SECRET_KEY_PREVIOUS must be at least 32 characters (the key SWITCHBOARD_SECRET_KEY had before)').optional(),
  SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK: positiveInt('SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK').default(10),
  SWITCHBOARD_MAX_STREAMS_PER_CALLER: positiveInt('SWITCHBOARD_MAX_STREAMS_PER_CALLER').default(50),
  // Per-caller quotas (lib/quotas, decision 216); 0 turns one off.
  SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER: wholeNumber('SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER', MAX_QUOTA).default(200),
  SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER: wholeNumber('SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER', MAX_QUOTA).default(200),
  SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER: wholeNumber('SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER', MAX_QUOTA).default(512 * 1024 * 1024),
  SWITCHBOARD_STORED_BYTES_WINDOW_SECONDS: positiveInt('SWITCHBOARD_STORED_BYTES_WINDOW_SECONDS')
    .refine((v) => v <= 86_400, { message: 'SWITCHBOARD_STORED_BYTES_WINDOW_SECONDS must be at most 86400 (a day)' })
    .default(3600),
  SWITCHBOARD_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  SWITCHBOARD_HEAP_GROWTH_PERCENT: wholeNumber('SWITCHBOARD_HEAP_GROWTH_PERCENT', 400).default(100),
  SWITCHBOARD_DEFAULT_AGENT: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'SWITCHBOARD_DEFAULT_AGENT must be an agent slug (lowercase letters, digits and dashes)')
    .default('echo'),
  SWITCHBOARD_TRUST_PROXY: z
    .enum(['0', '1', 'true', 'false'], { message: 'SWITCHBOARD_TRUST_PROXY must be 1 or 0' })
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  SWITCHBOARD_MAX_TASK_OUTPUT_BYTES: positiveInt('SWITCHBOARD_MAX_TASK_OUTPUT_BYTES').default(8 * 1024 * 1024),
  SWITCHBOARD_MAX_API_BODY_BYTES: positiveInt('SWITCHBOARD_MAX_API_BODY_BYTES').default(256 * 1024),
  SWITCHBOARD_HEADERS_TIMEOUT: seconds('SWITCHBOARD_HEADERS_TIMEOUT', 600).default(20_000),
  SWITCHBOARD_REQUEST_TIMEOUT: seconds('SWITCHBOARD_REQUEST_TIMEOUT', 3600).default(120_000),
  SWITCHBOARD_LOGIN_MAX_FAILURES: positiveInt('SWITCHBOARD_LOGIN_MAX_FAILURES').default(10),
  SWITCHBOARD_LOGIN_WINDOW: seconds('SWITCHBOARD_LOGIN_WINDOW', 86_400).default(60_000),
  SWITCHBOARD_LEASE: seconds('SWITCHBOARD_LEASE', 3600).default(15_000),
  SWITCHBOARD_SSE_KEEPALIVE: seconds('SWITCHBOARD_SSE_KEEPALIVE', KEEPALIVE_MAX_MS / 1000).default(KEEPALIVE_MS),
  SWITCHBOARD_OUTBOX_RETENTION: seconds('SWITCHBOARD_OUTBOX_RETENTION', 366 * 86_400).default(7 * 86_400_000),
  SWITCHBOARD_TASK_RETENTION: seconds('SWITCHBOARD_TASK_RETENTION', 3660 * 86_400).optional(),
  SWITCHBOARD_AUDIT_RETENTION: seconds('SWITCHBOARD_AUDIT_RETENTION', 3660 * 86_400).default(90 * 86_400_000),
  SWITCHBOARD_CARD_SIGNING_KEY: z.string().trim().min(1).max(4096, 'SWITCHBOARD_CARD_SIGNING_KEY must be a file path (at most 4096 characters)').optional(),
  SWITCHBOARD_CARD_PUBLISHED_KEYS: z
    .string()
    .max(65_536)
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((files) => files.length <= 16, { message: 'SWITCHBOARD_CARD_PUBLISHED_KEYS lists at most 16 key files (comma-separated)' }),
  SWITCHBOARD_INSTANCE_ID: z.string().trim().regex(/^[\w.:-]{1,100}$/, 'SWITCHBOARD_INSTANCE_ID must be 1-100 letters, digits, or . : _ -').optional(),
  SWITCHBOARD_OIDC_ISSUERS: z.string().default(''),
  SWITCHBOARD_OIDC_AUDIENCE: z.string().trim().min(1).max(1_000).optional(),
  SWITCHBOARD_OIDC_OWNER_CLAIM: z.string().trim().regex(CLAIM_NAME, 'SWITCHBOARD_OIDC_OWNER_CLAIM must be a claim name (letters, digits, _ . : / -)').default('sub'),
  SWITCHBOARD_OIDC_AGENTS_CLAIM: z.string().trim().regex(CLAIM_NAME, 'SWITCHBOARD_OIDC_AGENTS_CLAIM must be a claim name (letters, digits, _ . : / -)').optional(),
  SWITCHBOARD_OIDC_REQUIRED_SCOPE: z.string().trim().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/, 'SWITCHBOARD_OIDC_REQUIRED_SCOPE must be one OAuth scope token (no spaces or quotes), e.g. a2a:{agent}').optional(),
  SWITCHBOARD_OIDC_CLOCK_SKEW: wholeNumber('SWITCHBOARD_OIDC_CLOCK_SKEW', 300).default(30),
  SWITCHBOARD_OIDC_LOGIN_ISSUER: z.string().trim().optional(),
  SWITCHBOARD_OIDC_LOGIN_CLIENT_ID: z.string().trim().min(1).max(512).optional(),
  SWITCHBOARD_OIDC_LOGIN_CLIENT_SECRET: z.string().min(1).max(4_096).optional(),
  SWITCHBOARD_OIDC_LOGIN_SCOPES: z.string().trim().regex(/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, 'SWITCHBOARD_OIDC_LOGIN_SCOPES must be space-separated scope tokens').max(1_000).default('openid profile'),
  SWITCHBOARD_OIDC_LOGIN_NAME: z.string().trim().min(1).max(60).optional(),
  SWITCHBOARD_OIDC_ROLE_CLAIM: z.string().trim().regex(CLAIM_NAME, 'SWITCHBOARD_OIDC_ROLE_CLAIM must be a claim name (letters, digits, _ . : / -)').default('roles'),
  SWITCHBOARD_OIDC_OPERATOR_ROLE: z.string().trim().min(1).max(200).default('switchboard-operator'),
  SWITCHBOARD_OIDC_VIEWER_ROLE: z.string().trim().min(1).max(200).default('switchboard-viewer'),
});

/**
 * Accepted token issuers: absolute https URLs (http only for a loopback host, e.g. a test
 * provider), at most 8, compared exactly as the token's `iss` (a trailing slash is kept).
 */
function parseIssuers(list: string, setting = 'SWITCHBOARD_OIDC_ISSUERS'): string[] {
  const issuers = [...new Set(list.split(',').map((s) => s.trim()).filter(Boolean))];
  if (issuers.length > 8) throw new SettingsError(`Invalid configuration:\n  ${setting}: at most 8 issuers`);
  for (const issuer of issuers) {
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new SettingsError(`Invalid configuration:\n  ${setting}: "${issuer}" is not an absolute URL`);
    }
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
    if (!secure || url.search || url.hash || url.username || url.password) {
      throw new SettingsError(`Invalid configuration:\n  ${setting}: "${issuer}" must be an https URL without query, fragment or credentials (http only on loopback)`);
    }
  }
  return issuers;
}

export interface Settings {
  host: string;
  port: number;
  /** The A2A gRPC binding's own port on HOST; unset: gRPC is not served (decision 187). */
  grpcPort?: number;
  /** The gRPC target the cards name (`host:port`); unset: the card's host and grpcPort. */
  grpcPublicAddress?: string;
  databaseUrl: string;
  publicUrl?: string;
  /** W: how long a blocking send or open stream is held before the task detaches. */
  responseWindowMs: number;
  /** G: how long a detached task may keep running before it ends FAILED. */
  lateResultGraceMs: number;
  /** T: how long our client waits on a blocking call before it follows the task instead. */
  clientTimeoutMs: number;
  /** How long an outbound task is followed before it ends FAILED on our side. */
  followLimitMs: number;
  /** How long running tasks may finish after SIGTERM. */
  drainMs: number;
  /** A held blocking answer: headers go out after at most min(1 s, this), then a space this often. */
  blockingKeepaliveMs: number;
  /** How long a sent messageId is remembered: a repeat within it answers with the first task. */
  sendDedupWindowMs: number;
  maxBodyBytes: number;
  configPath?: string;
  /** Hosts or CIDR-less host names that push webhooks may target even if private. */
  pushAllowlist: string[];
  operatorToken?: string;
  viewerToken?: string;
  /** A scraper's bearer token for GET /api/metrics only. */
  metricsToken?: string;
  /** Key material for stored secrets; absent: a key file beside the database (lib/db/secret-box.ts). */
  secretKey?: string;
  /** The key before a rotation: still opens stored secrets (re-sealed at start-up) and delegation tokens. */
  previousSecretKey?: string;
  /** Push notification configs one task may have; one more is refused. */
  maxPushConfigsPerTask: number;
  /** Event streams (message/stream, resubscribe) one caller may hold open on this instance. */
  maxStreamsPerCaller: number;
  /** Per-caller quotas, the defaults an API key's own `quotas` override; 0 means none (lib/quotas). */
  quotas: { requestsPerSecond: number; openTasks: number; storedBytes: number };
  /** The window `quotas.storedBytes` counts over, in seconds. */
  storedBytesWindowSeconds: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** How far V8 lets the old generation grow past the live heap before a full GC (0 = V8's own). */
  heapGrowthPercent: number;
  /** The served agent at the root card and `/a2a` (a built-in or a config-file agent). */
  defaultAgent: string;
  /** Read the client's origin from X-Forwarded-Host/-Proto (only behind a proxy that sets them). */
  trustProxy: boolean;
  /** Artifact bytes one task may accumulate; more ends it FAILED `output limit exceeded`. */
  maxTaskOutputBytes: number;
  /** Body limit of /api JSON requests (login has its own, smaller one). */
  maxApiBodyBytes: number;
  /** A connection must finish its request headers within this (slow-client defence). */
  headersTimeoutMs: number;
  /** A request (headers and body) must arrive within this. */
  requestTimeoutMs: number;
  /** Wrong tokens allowed per window before logins and token checks answer 429. */
  loginMaxFailures: number;
  loginWindowMs: number;
  /** PostgreSQL with several instances: how long an instance's leases outlive its last renewal. */
  leaseMs: number;
  /** This instance's name among several (default host:port, so a restart is the same instance). */
  instanceId?: string;
  /** How long finished push deliveries and notifications are kept (the task page's delivery log). */
  outboxRetentionMs: number;
  /** The agent card signing key (PEM or JWK private key file); unset: generated beside the database. */
  cardSigningKeyFile?: string;
  /** Previous card keys (files) whose public halves stay in the JWKS after a rotation. */
  cardPublishedKeyFiles: string[];
  /** How long finished tasks (with their events, artifacts, messages) are kept; unset: forever. */
  taskRetentionMs?: number;
  /** How long operator audit entries are kept (docs/observability.md). */
  auditRetentionMs: number;
  /** How often every SSE stream (A2A and dashboard) sends a keepalive comment; at most 4 s. */
  sseKeepaliveMs: number;
  /** Inbound OIDC/OAuth2 bearer JWTs (lib/auth/oidc.ts); absent: API keys only. */
  oidc?: OidcSettings;
  /** Dashboard sign-in through an OpenID provider (lib/auth/dashboard-oidc.ts); absent: tokens only. */
  oidcLogin?: OidcLoginSettings;
}

export interface OidcLoginSettings {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only). */
  clientSecret?: string;
  scopes: string;
  /** "Sign in with <name>" on the login page. */
  name: string;
  /** The ID token claim whose values give the role (a list or one string). */
  roleClaim: string;
  operatorRole: string;
  viewerRole: string;
}

export interface OidcSettings {
  /** Accepted `iss` values; each one's discovery document names its JWKS. */
  issuers: string[];
  /** The `aud` every token must carry. */
  audience: string;
  /** The claim that names the caller (its tasks' owner); default `sub`. */
  ownerClaim: string;
  /** A claim listing the agent slugs the caller may use (`*`: all); absent: not checked. */
  agentsClaim?: string;
  /** A scope every token must carry; `{agent}` is replaced by the agent's slug. */
  requiredScope?: string;
  clockSkewSeconds: number;
}

export class SettingsError extends Error {}

const blankToUndefined = (env: NodeJS.ProcessEnv): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = EnvSchema.safeParse(blankToUndefined(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new SettingsError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const issuers = parseIssuers(e.SWITCHBOARD_OIDC_ISSUERS);
  if (issuers.length && !e.SWITCHBOARD_OIDC_AUDIENCE) throw new SettingsError('Invalid configuration:\n  SWITCHBOARD_OIDC_AUDIENCE: required with SWITCHBOARD_OIDC_ISSUERS (the `aud` tokens must be issued for)');
  const oidcLogin = loginSettings(e, issuers);
  if (e.SWITCHBOARD_GRPC_PORT === e.PORT) throw new SettingsError(`Invalid configuration:\n  SWITCHBOARD_GRPC_PORT: must differ from PORT (${e.PORT}); gRPC has a port of its own`);
  return {
    host: e.HOST,
    port: e.PORT,
    grpcPort: e.SWITCHBOARD_GRPC_PORT,
    grpcPublicAddress: e.SWITCHBOARD_GRPC_PUBLIC_ADDRESS,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.SWITCHBOARD_PUBLIC_URL?.replace(/\/+$/, ''),
    responseWindowMs: e.SWITCHBOARD_RESPONSE_WINDOW,
    lateResultGraceMs: e.SWITCHBOARD_LATE_RESULT_GRACE,
    clientTimeoutMs: e.SWITCHBOARD_CLIENT_TIMEOUT,
    followLimitMs: e.SWITCHBOARD_FOLLOW_LIMIT,
    drainMs: e.SWITCHBOARD_DRAIN,
    blockingKeepaliveMs: e.SWITCHBOARD_BLOCKING_KEEPALIVE,
    sendDedupWindowMs: e.SWITCHBOARD_SEND_DEDUP_WINDOW,
    maxBodyBytes: e.SWITCHBOARD_MAX_BODY_BYTES,
    configPath: e.SWITCHBOARD_CONFIG,
    pushAllowlist: e.SWITCHBOARD_PUSH_ALLOWLIST.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
    operatorToken: e.SWITCHBOARD_OPERATOR_TOKEN,
    viewerToken: e.SWITCHBOARD_VIEWER_TOKEN,
    metricsToken: e.SWITCHBOARD_METRICS_TOKEN,
    secretKey: e.SWITCHBOARD_SECRET_KEY,
    previousSecretKey: e.SWITCHBOARD_SECRET_KEY_PREVIOUS,
    maxPushConfigsPerTask: e.SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK,
    maxStreamsPerCaller: e.SWITCHBOARD_MAX_STREAMS_PER_CALLER,
    quotas: {
      requestsPerSecond: e.SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER,
      openTasks: e.SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER,
      storedBytes: e.SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER,
    },
    storedBytesWindowSeconds: e.SWITCHBOARD_STORED_BYTES_WINDOW_SECONDS,
    logLevel: e.SWITCHBOARD_LOG_LEVEL,
    heapGrowthPercent: e.SWITCHBOARD_HEAP_GROWTH_PERCENT,
    defaultAgent: e.SWITCHBOARD_DEFAULT_AGENT,
    trustProxy: e.SWITCHBOARD_TRUST_PROXY,
    maxTaskOutputBytes: e.SWITCHBOARD_MAX_TASK_OUTPUT_BYTES,
    maxApiBodyBytes: e.SWITCHBOARD_MAX_API_BODY_BYTES,
    headersTimeoutMs: e.SWITCHBOARD_HEADERS_TIMEOUT,
    requestTimeoutMs: Math.max(e.SWITCHBOARD_REQUEST_TIMEOUT, e.SWITCHBOARD_HEADERS_TIMEOUT),
    loginMaxFailures: e.SWITCHBOARD_LOGIN_MAX_FAILURES,
    loginWindowMs: e.SWITCHBOARD_LOGIN_WINDOW,
    leaseMs: e.SWITCHBOARD_LEASE,
    instanceId: e.SWITCHBOARD_INSTANCE_ID,
    outboxRetentionMs: e.SWITCHBOARD_OUTBOX_RETENTION,
    taskRetentionMs: e.SWITCHBOARD_TASK_RETENTION,
    auditRetentionMs: e.SWITCHBOARD_AUDIT_RETENTION,
    sseKeepaliveMs: e.SWITCHBOARD_SSE_KEEPALIVE,
    cardSigningKeyFile: e.SWITCHBOARD_CARD_SIGNING_KEY,
    cardPublishedKeyFiles: e.SWITCHBOARD_CARD_PUBLISHED_KEYS,
    oidc: issuers.length
      ? {
          issuers,
          audience: e.SWITCHBOARD_OIDC_AUDIENCE!,
          ownerClaim: e.SWITCHBOARD_OIDC_OWNER_CLAIM,
          agentsClaim: e.SWITCHBOARD_OIDC_AGENTS_CLAIM,
          requiredScope: e.SWITCHBOARD_OIDC_REQUIRED_SCOPE,
          clockSkewSeconds: e.SWITCHBOARD_OIDC_CLOCK_SKEW,
        }
      : undefined,
    oidcLogin,
  };
}

/**
 * Dashboard sign-in: on when a client id is set. The issuer is SWITCHBOARD_OIDC_LOGIN_ISSUER, else
 * the first inbound issuer; sessions are signed with the operator token, so it is required.
 */
function loginSettings(e: z.infer<typeof EnvSchema>, inboundIssuers: string[]): OidcLoginSettings | undefined {
  if (!e.SWITCHBOARD_OIDC_LOGIN_CLIENT_ID) return undefined;
  const issuer = e.SWITCHBOARD_OIDC_LOGIN_ISSUER ? parseIssuers(e.SWITCHBOARD_OIDC_LOGIN_ISSUER, 'SWITCHBOARD_OIDC_LOGIN_ISSUER')[0] : inboundIssuers[0];
  if (!issuer) throw new SettingsError('Invalid configuration:\n  SWITCHBOARD_OIDC_LOGIN_ISSUER: required with SWITCHBOARD_OIDC_LOGIN_CLIENT_ID when SWITCHBOARD_OIDC_ISSUERS is empty');
  if (!e.SWITCHBOARD_OPERATOR_TOKEN) throw new SettingsError('Invalid configuration:\n  SWITCHBOARD_OPERATOR_TOKEN: required with SWITCHBOARD_OIDC_LOGIN_CLIENT_ID (dashboard sessions are signed with a key derived from it)');
  return {
    issuer,
    clientId: e.SWITCHBOARD_OIDC_LOGIN_CLIENT_ID,
    clientSecret: e.SWITCHBOARD_OIDC_LOGIN_CLIENT_SECRET,
    scopes: e.SWITCHBOARD_OIDC_LOGIN_SCOPES.split(' ').includes('openid') ? e.SWITCHBOARD_OIDC_LOGIN_SCOPES : `openid ${e.SWITCHBOARD_OIDC_LOGIN_SCOPES}`,
    name: e.SWITCHBOARD_OIDC_LOGIN_NAME ?? new URL(issuer).host,
    roleClaim: e.SWITCHBOARD_OIDC_ROLE_CLAIM,
    operatorRole: e.SWITCHBOARD_OIDC_OPERATOR_ROLE,
    viewerRole: e.SWITCHBOARD_OIDC_VIEWER_ROLE,
  };
}

/** This hub's own base URL (the public URL, else its bind address; a wildcard on loopback). */
export function hubBaseUrl(s: Settings): string {
  if (s.publicUrl) return s.publicUrl;
  const wildcard = s.host === '0.0.0.0' || s.host === '::';
  const host = wildcard ? '127.0.0.1' : s.host.includes(':') && !s.host.startsWith('[') ? `[${s.host}]` : s.host;
  return `http://${host}:${s.port}`;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * The app's settings: those the composition root (lib/app/switchboard.ts) was built with, else
 * (a tool, a test of one layer) parsed once from the environment.
 */
export function getSettings(): Settings {
  return appPart('settings', () => {
    const settings = loadSettings();
    setLogLevel(settings.logLevel);
    return settings;
  });
}

declare module '../process-singleton' {
  interface AppParts {
    /** The settings every layer reads. */
    settings: Settings;
  }
}
