/**
 * The config file (SWITCHBOARD_CONFIG, JSON or YAML): served agents with their launchers, peers
 * and operator notification rules. Each entry is validated on its own, so one bad agent is reported (naming the file, the
 * agent and the key) and left out while the others are still served.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { parse } from 'yaml';
import { z } from 'zod';
import { LauncherSpecSchema } from '../launchers/spec';
import { NotificationRuleSchema, type NotificationRule } from './notification-rules';
import { GENERATION_EXTENSION_URI, TIMING_EXTENSION_URI } from '../protocol/extensions';
import { MEDIA_RANGE } from '../protocol/media-types';
import { getSettings } from './settings';
import { appPart } from '../process-singleton';

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const RESERVED_SLUGS = ['echo', 'slow', 'budget', 'ask'];

const SkillSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().default(''),
  tags: z.array(z.string()).default([]),
  examples: z.array(z.string()).optional(),
});

const positiveSeconds = z.number().positive().max(86_400);

/** An A2A extension the agent declares in its card; a `required` one must be named by callers. */
const ExtensionSchema = z.strictObject({
  uri: z.string().min(1).max(2_048),
  description: z.string().max(1_000).optional(),
  required: z.boolean().default(false),
  params: z.record(z.string(), z.unknown()).optional(),
});

const OAuth2ScopeSchema = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/, 'expected a scope token (RFC 6749 §3.3: printable, no space, quote or backslash)');

/**
 * OAuth2 client credentials for a peer (decision 224): the hub asks the token endpoint for an
 * access token and sends it as `Authorization: Bearer`. The token URL is `tokenUrl` when set,
 * else the one the peer's card declares on the peer's own origin; the secret goes nowhere else.
 */
export const OAuth2ClientSchema = z.strictObject({
  type: z.literal('oauth2'),
  clientId: z.string().min(1, 'expected the client id').max(512),
  clientSecret: z.string().min(1).max(4_096).optional(),
  clientSecretEnv: z.string().min(1).optional(),
  tokenUrl: z.url({ protocol: /^https?$/, message: 'expected an absolute http(s) URL' }).max(2_048).optional(),
  scopes: z.array(OAuth2ScopeSchema).max(32, 'at most 32 scopes').optional(),
  /** How the client authenticates to the token endpoint (RFC 6749 §2.3.1); Basic is the one every server supports. */
  authMethod: z.enum(['client_secret_basic', 'client_secret_post']).default('client_secret_basic'),
  /** Sent as `audience` (Auth0, Okta style) or `resource` (RFC 8707) when the provider needs one. */
  audience: z.string().min(1).max(2_048).optional(),
  resource: z.url().max(2_048).optional(),
});
export type OAuth2ClientConfig = z.infer<typeof OAuth2ClientSchema>;

export const PeerAuthSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().min(1).optional(), tokenEnv: z.string().min(1).optional() }),
  z.strictObject({
    type: z.literal('apiKey'),
    header: z.string().min(1).default('X-API-Key'),
    key: z.string().min(1).optional(),
    keyEnv: z.string().min(1).optional(),
  }),
  OAuth2ClientSchema,
]);

/**
 * Origins besides the peer URL's own that may receive its auth and headers: an
 * explicit opt-in, for a peer whose card names an endpoint on another origin it trusts.
 */
export const CredentialOriginsSchema = z
  .array(
    z.url({ protocol: /^https?$/, message: 'expected an http(s) origin such as "https://agents.example.com"' }).refine((u) => /^https?:\/\/[^/]+\/?$/i.test(u), 'expected an origin only (scheme, host, port), without a path'),
    { error: 'expected an array of origins' },
  )
  .max(16, 'at most 16 origins')
  .transform((list) => [...new Set(list.map((u) => new URL(u).origin))]);

/** Bounds a pinned JWK: the largest real public key (RSA 8192) is well under this. */
const MAX_PINNED_JWK_CHARS = 8_192;
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * A peer's card key pin (A2A v1.0 §8.4, decision 200): its card must carry a signature that
 * verifies with this public JWK, or with a key of the JWKS at this URL (fetched from the URL
 * pinned here, never from the `jku` the card names). Exactly one of the two.
 */
export const CardKeyPinSchema = z
  .strictObject({
    jwksUrl: z.url({ protocol: /^https?$/, message: 'expected an absolute http(s) URL of a JWKS' }).max(2_048).optional(),
    jwk: z
      .record(z.string(), z.unknown())
      .refine((k) => typeof k.kty === 'string', 'expected a JWK with "kty"')
      .refine((k) => !PRIVATE_JWK_MEMBERS.some((m) => m in k), 'expected a public JWK (no private or symmetric members)')
      .refine((k) => JSON.stringify(k).length <= MAX_PINNED_JWK_CHARS, `expected at most ${MAX_PINNED_JWK_CHARS} characters of JWK`)
      .optional(),
  })
  .refine((pin) => (pin.jwksUrl === undefined) !== (pin.jwk === undefined), 'give exactly one of jwksUrl or jwk');
export type CardKeyPin = z.infer<typeof CardKeyPinSchema>;

export const PeerConfigSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'expected letters, digits, dot, dash or underscore'),
  url: z.url({ protocol: /^https?$/, message: 'expected an absolute http(s) URL' }),
  auth: PeerAuthSchema.default({ type: 'none' }),
  headers: z.record(z.string(), z.string()).default({}),
  credentialOrigins: CredentialOriginsSchema.default([]),
  cardKey: CardKeyPinSchema.optional(),
  timeoutSeconds: positiveSeconds.optional(),
  notes: z.string().optional(),
});
export type PeerConfig = z.infer<typeof PeerConfigSchema>;

/**
 * A relay agent's peer (docs/relay.md): a configured peer by name, or a URL with the same auth
 * fields a peer has (the loader turns it into a config peer named `relay.<slug>`, so every call
 * still goes through the one peer resolver).
 */
export const RelaySpecSchema = z
  .strictObject({
    peer: z.string().min(1).max(63).optional(),
    url: z.url({ protocol: /^https?$/, message: 'expected an absolute http(s) URL' }).optional(),
    auth: PeerAuthSchema.optional(),
    headers: z.record(z.string(), z.string()).optional(),
    credentialOrigins: CredentialOriginsSchema.optional(),
    cardKey: CardKeyPinSchema.optional(),
    timeoutSeconds: positiveSeconds.optional(),
  })
  .superRefine((r, ctx) => {
    if (Boolean(r.peer) === Boolean(r.url)) ctx.addIssue({ code: 'custom', path: ['peer'], message: 'give exactly one of peer or url' });
    if (r.peer) {
      for (const key of ['auth', 'headers', 'credentialOrigins', 'cardKey', 'timeoutSeconds'] as const) {
        if (r[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'only with url (a named peer has its own)' });
      }
    }
  });
export type RelaySpec = z.infer<typeof RelaySpecSchema>;

/** The config peer a `relay: {url}` agent is served through. */
export const relayPeerName = (slug: string) => `relay.${slug}`;

export const AgentConfigSchema = z
  .strictObject({
    slug: z
      .string()
      .regex(SLUG, 'expected lowercase letters, digits and dashes (served at /a2a/<slug>)')
      .refine((s) => !RESERVED_SLUGS.includes(s), { message: `is reserved for a built-in agent (${RESERVED_SLUGS.join(', ')})` }),
    /** Optional for a relay agent: the peer's card names it. */
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    skills: z.array(SkillSchema).optional(),
    /** Skills only authenticated callers see: the extended card (GetExtendedAgentCard). */
    extendedSkills: z.array(SkillSchema).min(1, 'expected at least one skill (or leave extendedSkills out)').max(64, 'at most 64 skills').optional(),
    responseWindowSeconds: positiveSeconds.optional(),
    lateResultGraceSeconds: positiveSeconds.optional(),
    extensions: z
      .array(ExtensionSchema)
      .max(16)
      .refine((list) => new Set(list.map((e) => e.uri)).size === list.length, 'each extension uri at most once')
      .refine((list) => list.every((e) => e.uri !== TIMING_EXTENSION_URI && e.uri !== GENERATION_EXTENSION_URI), `${TIMING_EXTENSION_URI} and ${GENERATION_EXTENSION_URI} are Switchboard's own; every card has them`)
      .default([]),
    /** The media types its messages' parts may have (card `defaultInputModes`); others get -32005. */
    inputModes: z
      .array(z.string().transform((t) => t.trim().toLowerCase()).pipe(z.string().regex(MEDIA_RANGE, 'expected a media type such as "text/plain", "image/*" or "*/*"')))
      .min(1, 'expected at least one media type')
      .max(32, 'at most 32 media types')
      .optional(),
    launcher: LauncherSpecSchema.optional(),
    relay: RelaySpecSchema.optional(),
  })
  .superRefine((a, ctx) => {
    if (Boolean(a.launcher) === Boolean(a.relay)) ctx.addIssue({ code: 'custom', path: ['launcher'], message: 'give exactly one of launcher or relay' });
    if (a.launcher && !a.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'required for a launcher agent' });
    const publicIds = new Set((a.skills ?? []).map((s) => s.id));
    a.extendedSkills?.forEach((s, i) => {
      if (publicIds.has(s.id)) ctx.addIssue({ code: 'custom', path: ['extendedSkills', i, 'id'], message: `"${s.id}" is already a public skill's id` });
    });
  });
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/**
 * One problem in the config file, as an operator needs it: where (file, entry, key) and what.
 * `text` is the one-line form the log carries: `<file>: agents[2] "coder": launcher.cwd: …`.
 */
export interface ConfigIssue {
  file: string | null;
  /** `agents[2] "coder"`, `peers[0] "b"`, or null for the file itself. */
  entry: string | null;
  /** Dot path inside the entry (`launcher.command.1`), `(entry)`, or the top-level key. */
  key: string;
  message: string;
  text: string;
}

export interface FileConfig {
  file?: string;
  baseDir: string;
  agents: AgentConfig[];
  peers: PeerConfig[];
  notifications: NotificationRule[];
  /** Every problem, structured (the dashboard and /api/status show them). */
  issues: ConfigIssue[];
  /** The same, as log lines; those of `notifications` are fatal at start-up (lib/notify). */
  errors: string[];
}

export function configIssue(file: string | null, entry: string | null, key: string, message: string): ConfigIssue {
  const text = [file, entry, key].filter(Boolean).join(': ');
  return { file, entry, key, message, text: `${text}: ${message}` };
}

function formatIssues(file: string, entry: string, error: z.ZodError): ConfigIssue[] {
  return error.issues.map((i) => configIssue(file, entry, i.path.length ? i.path.join('.') : '(entry)', i.message));
}

/** yaml (~1 MB of heap) is required by the first YAML config file read: most hubs have none (decision 411). */
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)('yaml') as { parse: typeof parse }).parse(text);

function readDocument(file: string): unknown {
  const text = fs.readFileSync(file, 'utf8');
  return /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
}

function validateEach<T>(
  file: string,
  key: string,
  entries: unknown,
  schema: z.ZodType<T>,
  label: (raw: unknown) => string,
  errors: ConfigIssue[],
): T[] {
  if (entries === undefined) return [];
  if (!Array.isArray(entries)) {
    errors.push(configIssue(file, null, key, 'expected a list'));
    return [];
  }
  const out: T[] = [];
  entries.forEach((raw, index) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) out.push(parsed.data);
    else errors.push(...formatIssues(file, `${key}[${index}] ${label(raw)}`, parsed.error));
  });
  return out;
}

const nameOf = (field: string) => (raw: unknown) => {
  const value = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? `"${value}"` : '(unnamed)';
};

/** The peers `relay: {url}` agents are served through, named `relay.<slug>`. */
function relayPeers(agents: AgentConfig[]): PeerConfig[] {
  return agents.flatMap(({ slug, relay }) =>
    relay?.url
      ? [{ name: relayPeerName(slug), url: relay.url, auth: relay.auth ?? { type: 'none' as const }, headers: relay.headers ?? {}, credentialOrigins: relay.credentialOrigins ?? [], cardKey: relay.cardKey, timeoutSeconds: relay.timeoutSeconds, notes: `relay agent ${slug}` }]
      : [],
  );
}

const result = (base: Omit<FileConfig, 'errors'>): FileConfig => ({ ...base, errors: base.issues.map((i) => i.text) });

export function loadFileConfig(configPath: string | undefined): FileConfig {
  if (!configPath) return result({ baseDir: process.cwd(), agents: [], peers: [], notifications: [], issues: [] });
  const file = path.resolve(configPath);
  const baseDir = path.dirname(file);
  const issues: ConfigIssue[] = [];
  let doc: unknown;
  try {
    doc = readDocument(file);
  } catch (err) {
    return result({ file, baseDir, agents: [], peers: [], notifications: [], issues: [configIssue(file, null, '(file)', `cannot be read: ${(err as Error).message}`)] });
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    return result({ file, baseDir, agents: [], peers: [], notifications: [], issues: [configIssue(file, null, '(file)', 'expected an object with "agents", "peers" and/or "notifications"')] });
  }
  const { agents, peers, notifications, ...rest } = doc as Record<string, unknown>;
  for (const key of Object.keys(rest)) issues.push(configIssue(file, null, key, 'unknown key (expected "agents", "peers" or "notifications")'));
  const agentList = validateEach(file, 'agents', agents, AgentConfigSchema, nameOf('slug'), issues);
  const seen = new Set<string>();
  const uniqueAgents = agentList.filter((a) => {
    if (seen.has(a.slug)) issues.push(configIssue(file, `agents "${a.slug}"`, 'slug', 'duplicate; the first one is served'));
    return !seen.has(a.slug) && seen.add(a.slug);
  });
  const peerList = [...validateEach(file, 'peers', peers, PeerConfigSchema, nameOf('name'), issues), ...relayPeers(uniqueAgents)];
  const rules = validateEach(file, 'notifications', notifications, NotificationRuleSchema, nameOf('name'), issues);
  const ruleNames = new Set<string>();
  for (const rule of rules) {
    if (ruleNames.has(rule.name)) issues.push(configIssue(file, `notifications "${rule.name}"`, 'name', 'duplicate; rule names must be unique'));
    ruleNames.add(rule.name);
  }
  return result({ file, baseDir, agents: uniqueAgents, peers: peerList, notifications: rules, issues });
}

/**
 * The config file, read once per app (like the settings): the agent registry and the peer
 * sync share it, so each problem in it is found, and logged, once.
 */
export function fileConfig(): FileConfig {
  return appPart('fileConfig', () => loadFileConfig(getSettings().configPath));
}

/** Problems with the `peers` list, which the peer sync reports; the rest the agent registry does. */
export const isPeerConfigError = (error: string): boolean => error.includes(': peers');

declare module '../process-singleton' {
  interface AppParts {
    /** The config file (SWITCHBOARD_CONFIG), read once. */
    fileConfig: FileConfig;
  }
}
