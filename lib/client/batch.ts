/**
 * A peer's stream is read a batch at a time (the events of one read), but an event that cannot be
 * read must still come after the ones before it, as when events were handed on one by one: the
 * good prefix is handed on first, then the failure is thrown.
 */
export interface MappedPrefix<U> {
  mapped: U[];
  failure?: { error: unknown };
}

/** `map` over `items` until one throws: what was mapped before it, and the error. */
export function mapPrefix<T, U>(items: readonly T[], map: (item: T) => U | undefined): MappedPrefix<U> {
  const mapped: U[] = [];
  try {
    for (const item of items) {
      const value = map(item);
      if (value !== undefined) mapped.push(value);
    }
  } catch (error) {
    return { mapped, failure: { error } };
  }
  return { mapped };
}
