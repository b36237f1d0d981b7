/**
 * Process-level state, kept to a few slots. Next.js bundles route handlers and instrumentation
 * into separate module graphs (and dev hot reload re-evaluates modules), so module-level state
 * would be duplicated per bundle: what must be one per process lives on globalThis.
 *
 * - `appPart`: the parts of the running app (lib/app/switchboard.ts builds them, with its
 *   settings, and installs them all at once). Every concern declares its part by adding to
 *   `AppParts` (declaration merging), so the one slot is typed and lists what the app holds.
 *   A part reached before any app is installed (the CLI, a test of one layer) is created then,
 *   by the same constructor the root uses.
 * - `processSingleton`: the few slots that cannot be the app's (each says why where it is used).
 */
export function processSingleton<T>(key: string, create: () => T): T {
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  const symbol = Symbol.for(`switchboard.${key}`);
  return (store[symbol] ??= create());
}

/** The parts of the app lower layers reach; each concern adds its own (`declare module`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppParts {}

/**
 * The one app slot, process-level because Next.js bundles each route handler apart from
 * instrumentation.ts (which builds the app): the app's parts, replaced whole when an app is built.
 */
const APP_SLOT = Symbol.for('switchboard.app');
type AppSlot = { parts: Partial<AppParts> };
// Read on every part access (getSettings() included): the symbol is looked up once per module copy.
const partsSlot = (): AppSlot => ((globalThis as unknown as Record<symbol, AppSlot | undefined>)[APP_SLOT] ??= { parts: {} });

export function appPart<K extends keyof AppParts>(name: K, create: () => AppParts[K]): AppParts[K] {
  const parts = partsSlot().parts;
  return (parts[name] ??= create()) as AppParts[K];
}

/** A part if the app has it, without creating it. */
export function installedAppPart<K extends keyof AppParts>(name: K): AppParts[K] | undefined {
  return partsSlot().parts[name];
}

/**
 * The root's: from now on lower layers reach these parts, and those it left out are created on
 * first use in this app's record (a second app replaces the first's, caches included).
 */
export function installAppParts(parts: Partial<AppParts>): void {
  partsSlot().parts = { ...parts };
}

/** The root's, after installAppParts: the parts it built reading the installed ones. */
export function addAppParts(parts: Partial<AppParts>): void {
  Object.assign(partsSlot().parts, parts);
}
