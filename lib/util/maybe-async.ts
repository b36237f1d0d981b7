/** A value a port returns either at once (SQLite, in-memory) or as a promise (PostgreSQL). */
export type MaybeAsync<T> = T | Promise<T>;
