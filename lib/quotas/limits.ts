/**
 * A caller's limits: the settings' defaults, overridden per API key by the key's own `quotas`
 * (set with `switchboard keys quota`, stored on the key row). OIDC subjects and the open-mode
 * owner get the defaults. 0 means no limit.
 */
import { z } from 'zod';
import { getSettings, MAX_QUOTA } from '../config/settings';
import { findApiKeyQuotas, setApiKeyQuotas } from '../db/key-repo';
import { ANONYMOUS_OWNER, SELF_OWNER } from '../db/task-scope';
import { appPart } from '../process-singleton';
import { errorMessage, log } from '../log';

export const QUOTA_NAMES = ['requestsPerSecond', 'openTasks', 'storedBytes'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];
export type CallerLimits = Record<QuotaName, number>;

/** What a key's `quotas` column holds: any of the three; a missing one is the default. */
export const QuotaOverridesSchema = z.strictObject({
  requestsPerSecond: z.number().int().min(0).max(MAX_QUOTA).optional(),
  openTasks: z.number().int().min(0).max(MAX_QUOTA).optional(),
  storedBytes: z.number().int().min(0).max(MAX_QUOTA).optional(),
});
export type QuotaOverrides = z.infer<typeof QuotaOverridesSchema>;

/** Like the key cache in lib/auth/api-keys.ts: a changed override applies within two seconds. */
const CACHE_MS = 2_000;
const MAX_CACHED = 10_000;
const overridesCache = () => appPart('quotaOverrides', () => new Map<string, { overrides: QuotaOverrides; until: number }>());

/** Owners that are never API keys: no row to read. */
const isKeyOwner = (owner: string) => owner !== ANONYMOUS_OWNER && owner !== SELF_OWNER && !owner.startsWith('oidc:');

/** A stored override that no longer parses (hand-edited) is ignored, with a warning: the defaults apply. */
function parseStored(owner: string, text: string | null | undefined): QuotaOverrides {
  if (!text) return {};
  try {
    return QuotaOverridesSchema.parse(JSON.parse(text));
  } catch (err) {
    log.warn('an API key has unreadable quotas; the defaults apply', { key: owner, error: errorMessage(err) });
    return {};
  }
}

async function overridesOf(owner: string): Promise<QuotaOverrides> {
  if (!isKeyOwner(owner)) return {};
  const cache = overridesCache();
  const hit = cache.get(owner);
  if (hit && hit.until > Date.now()) return hit.overrides;
  const overrides = parseStored(owner, await findApiKeyQuotas(owner));
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(owner, { overrides, until: Date.now() + CACHE_MS });
  return overrides;
}

export async function callerLimits(owner: string): Promise<CallerLimits> {
  return { ...getSettings().quotas, ...(await overridesOf(owner)) };
}

/**
 * Changes a key's own quotas: each entry sets a limit, or with null returns it to the default.
 * Gives the key's quotas after the change, or null when no key has that id.
 */
export async function changeKeyQuotas(id: string, changes: Partial<Record<QuotaName, number | null>>): Promise<QuotaOverrides | null> {
  const stored = await findApiKeyQuotas(id);
  if (stored === undefined) return null;
  const next: QuotaOverrides = { ...parseStored(id, stored) };
  for (const name of QUOTA_NAMES) {
    const value = changes[name];
    if (value === null) delete next[name];
    else if (value !== undefined) next[name] = value;
  }
  const parsed = QuotaOverridesSchema.parse(next);
  await setApiKeyQuotas(id, Object.keys(parsed).length ? JSON.stringify(parsed) : null);
  overridesCache().delete(id);
  return parsed;
}

declare module '../process-singleton' {
  interface AppParts {
    /** Callers' quota overrides, briefly. */
    quotaOverrides: Map<string, { overrides: QuotaOverrides; until: number }>;
  }
}
