import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safe-next';

describe('login redirect target', () => {
  it('keeps same-origin paths', () => {
    expect(safeNextPath('/tasks/abc?x=1#top')).toBe('/tasks/abc?x=1#top');
    expect(safeNextPath('/peers')).toBe('/peers');
  });

  it('refuses anything a browser would read as another origin', () => {
    for (const hostile of ['/\\evil.example/', '/\t/evil.example/', '//evil.example/', '/.//evil.example/', 'https://evil.example/', '/\n/evil', '\\\\evil', 'evil', '', null, undefined]) {
      expect(safeNextPath(hostile), String(hostile)).toBe('/');
    }
  });
});
