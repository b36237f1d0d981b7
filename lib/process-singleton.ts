/**
 * One instance per process. Next.js bundles route handlers and instrumentation into separate
 * module graphs (and dev hot reload re-evaluates modules), so module-level singletons would
 * be duplicated; the hub, the engine registry and the database client live on globalThis.
 */
export function processSingleton<T>(key: string, create: () => T): T {
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  const symbol = Symbol.for(`switchboard.${key}`);
  return (store[symbol] ??= create());
}
