/**
 * The config file (SWITCHBOARD_CONFIG, JSON or YAML): served agents with their launchers, and
 * peers. Each entry is validated on its own, so one bad agent is reported (naming the file, the
 * agent and the key) and left out while the others are still served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { LauncherSpecSchema } from '../launchers/spec';
import { getSettings } from './settings';

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

export const AgentConfigSchema = z.strictObject({
  slug: z
    .string()
    .regex(SLUG, 'expected lowercase letters, digits and dashes (served at /a2a/<slug>)')
    .refine((s) => !RESERVED_SLUGS.includes(s), { message: `is reserved for a built-in agent (${RESERVED_SLUGS.join(', ')})` }),
  name: z.string().min(1),
  description: z.string().default(''),
  skills: z.array(SkillSchema).default([]),
  responseWindowSeconds: positiveSeconds.optional(),
  lateResultGraceSeconds: positiveSeconds.optional(),
  launcher: LauncherSpecSchema,
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export const PeerAuthSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().min(1).optional(), tokenEnv: z.string().min(1).optional() }),
  z.strictObject({
    type: z.literal('apiKey'),
    header: z.string().min(1).default('X-API-Key'),
    key: z.string().min(1).optional(),
    keyEnv: z.string().min(1).optional(),
  }),
]);

/**
 * Origins besides the peer URL's own that may receive its auth and headers (issue 11 §4): an
 * explicit opt-in, for a peer whose card names an endpoint on another origin it trusts.
 */
export const CredentialOriginsSchema = z
  .array(
    z.url({ protocol: /^https?$/, message: 'expected an http(s) origin such as "https://agents.example.com"' }).refine((u) => /^https?:\/\/[^/]+\/?$/i.test(u), 'expected an origin only (scheme, host, port), without a path'),
    { error: 'expected an array of origins' },
  )
  .max(16, 'at most 16 origins')
  .transform((list) => [...new Set(list.map((u) => new URL(u).origin))]);

export const PeerConfigSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'expected letters, digits, dot, dash or underscore'),
  url: z.url({ protocol: /^https?$/, message: 'expected an absolute http(s) URL' }),
  auth: PeerAuthSchema.default({ type: 'none' }),
  headers: z.record(z.string(), z.string()).default({}),
  credentialOrigins: CredentialOriginsSchema.default([]),
  timeoutSeconds: positiveSeconds.optional(),
  notes: z.string().optional(),
});
export type PeerConfig = z.infer<typeof PeerConfigSchema>;

export interface FileConfig {
  file?: string;
  baseDir: string;
  agents: AgentConfig[];
  peers: PeerConfig[];
  errors: string[];
}

function formatIssues(prefix: string, error: z.ZodError): string[] {
  return error.issues.map((i) => `${prefix}: ${i.path.length ? i.path.join('.') : '(entry)'}: ${i.message}`);
}

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
  errors: string[],
): T[] {
  if (entries === undefined) return [];
  if (!Array.isArray(entries)) {
    errors.push(`${file}: ${key}: expected a list`);
    return [];
  }
  const out: T[] = [];
  entries.forEach((raw, index) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) out.push(parsed.data);
    else errors.push(...formatIssues(`${file}: ${key}[${index}] ${label(raw)}`, parsed.error));
  });
  return out;
}

const nameOf = (field: string) => (raw: unknown) => {
  const value = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? `"${value}"` : '(unnamed)';
};

export function loadFileConfig(configPath: string | undefined): FileConfig {
  if (!configPath) return { baseDir: process.cwd(), agents: [], peers: [], errors: [] };
  const file = path.resolve(configPath);
  const baseDir = path.dirname(file);
  const errors: string[] = [];
  let doc: unknown;
  try {
    doc = readDocument(file);
  } catch (err) {
    return { file, baseDir, agents: [], peers: [], errors: [`${file}: cannot be read: ${(err as Error).message}`] };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    return { file, baseDir, agents: [], peers: [], errors: [`${file}: expected an object with "agents" and/or "peers"`] };
  }
  const { agents, peers, ...rest } = doc as Record<string, unknown>;
  for (const key of Object.keys(rest)) errors.push(`${file}: ${key}: unknown key (expected "agents" or "peers")`);
  const agentList = validateEach(file, 'agents', agents, AgentConfigSchema, nameOf('slug'), errors);
  const seen = new Set<string>();
  const uniqueAgents = agentList.filter((a) => {
    if (seen.has(a.slug)) errors.push(`${file}: agents "${a.slug}": slug: duplicate; the first one is served`);
    return !seen.has(a.slug) && seen.add(a.slug);
  });
  return { file, baseDir, agents: uniqueAgents, peers: validateEach(file, 'peers', peers, PeerConfigSchema, nameOf('name'), errors), errors };
}

const FILE_CONFIG_KEY = Symbol.for('switchboard.file-config');

/**
 * The config file, read once per process (like the settings): the agent registry and the peer
 * sync share it, so each problem in it is found, and logged, once.
 */
export function fileConfig(): FileConfig {
  const holder = globalThis as { [FILE_CONFIG_KEY]?: FileConfig };
  return (holder[FILE_CONFIG_KEY] ??= loadFileConfig(getSettings().configPath));
}

/** Problems with the `peers` list, which the peer sync reports; the rest the agent registry does. */
export const isPeerConfigError = (error: string): boolean => error.includes(': peers');
