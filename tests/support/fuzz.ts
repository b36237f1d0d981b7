/**
 * Seeded generators shared by the fuzz tests (tests/security/*-fuzz.test.ts): JSON values of
 * every type with the protocol's field names and awkward strings, and text mutations that break
 * JSON. Seeded, so a failure can be replayed (FUZZ_SEED, FUZZ_COUNT).
 */

/** mulberry32: small, seedable, good enough to pick shapes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const KEYS = [
  'message', 'id', 'taskId', 'contextId', 'messageId', 'role', 'parts', 'kind', 'text', 'data', 'file', 'metadata', 'configuration', 'blocking', 'returnImmediately',
  'historyLength', 'pageSize', 'pageToken', 'status', 'statusTimestampAfter', 'includeArtifacts', 'pushNotificationConfig', 'taskPushNotificationConfig', 'url',
  'token', 'authentication', 'schemes', 'credentials', 'pushNotificationConfigId', 'name', 'tenant', 'content', 'mediaType', 'raw', 'uri', 'bytes',
  '__proto__', 'constructor', 'prototype', 'toString', 'extensions', 'referenceTaskIds', 'acceptedOutputModes', 'durationSeconds', 'chunks', 'steps',
];
export const STRINGS = [
  '', ' ', 'user', 'agent', 'ROLE_USER', 'ROLE_AGENT', 'text', 'data', 'file', 'completed', 'TASK_STATE_WORKING', 'working', 'http://127.0.0.1:1/hook',
  'https://10.0.0.1/x', 'not a url', 'javascript:alert(1)', '2026-01-01T00:00:00Z', 'garbage-date', '\u0000', '\ud800', '😀', '%E0%A4%A', '../../etc/passwd',
  'eyJjcmVhdGVkQXQiOiJ4IiwiaWQiOiJ5In0', 'W10', '-1', 'NaN', 'true', 'null', '{}', '[]', 'steps 3 budget 1 stepMs 0', 'hello',
];
const SPECIALS = [0, -1, 1, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, true, false, null];

export function fuzzer(seed: number) {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const int = (n: number) => Math.floor(rand() * n);

  function value(depth: number): unknown {
    const r = rand();
    if (depth > 4 || r < 0.3) return pick([...STRINGS, ...STRINGS.map((s) => s.repeat(1 + int(3)))]);
    if (r < 0.45) return pick(SPECIALS);
    if (r < 0.6) return Array.from({ length: int(4) }, () => value(depth + 1));
    return object(depth + 1);
  }

  function object(depth: number): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    for (let i = int(5); i >= 0; i--) o[pick(KEYS)] = value(depth);
    return o;
  }

  function mutate(text: string): string {
    const chars = [...text];
    for (let i = 1 + int(4); i > 0; i--) {
      const at = int(chars.length + 1);
      const r = rand();
      if (r < 0.3) chars.splice(at, 1);
      else if (r < 0.6) chars.splice(at, 0, pick(['{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', 'e9999', '-']));
      else chars.length = Math.min(chars.length, at);
    }
    return chars.join('');
  }

  return { rand, pick, int, value, object, mutate };
}

/** Runs `count` jobs over `concurrency` workers, in order of their index. */
export async function runPool(count: number, concurrency: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await job(next++);
  }));
}
