/**
 * docs/decisions.md's index (number, title, status per entry) matches its entries: written by
 * scripts/decisions-index.mjs, checked here so a new or re-marked entry cannot leave it stale.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { DECISIONS, entriesOf, withIndex } from '../../scripts/decisions-index.mjs';

type Entry = { number: number; title: string; status: string };

describe('docs/decisions.md', () => {
  const text = readFileSync(DECISIONS as string, 'utf8');

  it('has an index that lists every entry with its status (node scripts/decisions-index.mjs)', () => {
    expect(withIndex(text)).toBe(text);
  });

  it('numbers entries once and marks a superseded entry with the later one that supersedes it', () => {
    const entries = (entriesOf as (t: string) => Entry[])(text);
    expect(entries.length).toBeGreaterThan(200);
    const numbers = entries.map((e) => e.number);
    // Unique, not necessarily sorted: parallel branches append their own blocks of numbers.
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const e of entries.filter((x) => x.status !== 'active')) {
      const by = Number(/by (\d+)/.exec(e.status)![1]);
      expect(numbers, `${e.number}: ${e.status}`).toContain(by);
      expect(by, `${e.number} is superseded by a later entry`).toBeGreaterThan(e.number);
    }
  });
});
