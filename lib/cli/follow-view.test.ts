import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeForState } from './exit-codes';
import { ResultWriter } from './follow-view';

const artifact = (artifactId: string, ...texts: string[]) => ({ artifactId, parts: texts.map((text) => ({ kind: 'text' as const, text })) });

function writer() {
  let out = '';
  return { w: new ResultWriter({ write: (t: string) => (out += t) }), out: () => out };
}

describe('ResultWriter (what --follow prints to stdout)', () => {
  it('writes only what each artifact grew by, so the output is the whole result exactly once', () => {
    const { w, out } = writer();
    w.update([artifact('r', 'a')]);
    w.update([artifact('r', 'a', 'b')]);
    w.update([artifact('r', 'a', 'b')]);
    w.update([artifact('r', 'a', 'b', 'c')]);
    w.finish();
    expect(out()).toBe('abc\n');
  });

  it('starts a second artifact on its own line and writes a replaced artifact again in full', () => {
    const { w, out } = writer();
    w.update([artifact('one', 'first')]);
    w.update([artifact('one', 'first'), artifact('two', 'second')]);
    w.update([artifact('one', 'other'), artifact('two', 'second')]);
    expect(out()).toBe('first\nsecond\nother');
  });

  it("continues, not repeats, a streamed text the peer's final task re-rendered under a new id", () => {
    const { w, out } = writer();
    w.update([artifact('streamed', 'ab')]);
    w.update([artifact('rendered', 'ab')]);
    w.update([artifact('rendered', 'abc')]);
    w.finish();
    expect(out()).toBe('abc\n');
  });
});

describe('exit codes (README "Exit codes")', () => {
  it('gives each ending its own code and treats a lost peer as lost contact', () => {
    expect(exitCodeForState('completed', null)).toBe(EXIT.completed);
    expect(exitCodeForState('failed', 'iteration budget exhausted')).toBe(EXIT.failed);
    expect(exitCodeForState('failed', 'follow limit exceeded')).toBe(EXIT.lostContact);
    expect(exitCodeForState('failed', 'peer lost the task: -32001')).toBe(EXIT.lostContact);
    expect(exitCodeForState('canceled', null)).toBe(EXIT.canceled);
    expect(exitCodeForState('rejected', null)).toBe(EXIT.rejected);
    expect(exitCodeForState('input-required', null)).toBe(EXIT.inputRequired);
    expect(exitCodeForState('working', null)).toBeNull();
    expect(new Set(Object.values(EXIT)).size).toBe(Object.values(EXIT).length);
  });
});
