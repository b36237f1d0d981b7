// Intentionally empty. Without it, Turbopack picks up the repo root's instrumentation.ts
// (Switchboard's boot: database, migrations), which the floor must not run.
export function register() {}
