/**
 * The environment a launched child sees. Minimal by default so that the hub's secrets
 * (database URLs, API keys, operator tokens) never leak into an agent by accident: only the
 * variables a program needs to run at all, then the operator's explicit allowlist and values.
 */

/** Passed through when set in the hub's environment. */
export const BASE_ENV_NAMES = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const;

export interface ChildEnvSpec {
  passEnv: readonly string[];
  env: Readonly<Record<string, string>>;
}

export function buildChildEnv(spec: ChildEnvSpec, source: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of [...BASE_ENV_NAMES, ...spec.passEnv]) {
    const value = source[name];
    if (value !== undefined) result[name] = value;
  }
  // Fixed values win over inherited ones: the config file is the more deliberate statement.
  return { ...result, ...spec.env };
}
