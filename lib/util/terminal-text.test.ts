import { describe, expect, it } from 'vitest';
import { terminalLine, terminalText } from './terminal-text';

const HOSTILE = 'a\x1b]0;pwned\x07b\x1b[2Jc\x1b]52;c;aWQ=\x07d\x9b31me\rf\x00g\x7fh\u202ei';

describe('terminal text', () => {
  it('makes every control character visible, OSC, CSI, C1, NUL, DEL, CR and bidi overrides included', () => {
    const out = terminalLine(HOSTILE);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(out).toBe('a\\x1b]0;pwned\\x07b\\x1b[2Jc\\x1b]52;c;aWQ=\\x07d\\x9b31me\\x0df\\x00g\\x7fh\\u{202e}i');
  });

  it('a table cell keeps no newline or tab; a result text keeps both', () => {
    expect(terminalLine('one\ntwo\tthree')).toBe('one\\x0atwo\\x09three');
    expect(terminalText('one\ntwo\tthree\x1b[1m')).toBe('one\ntwo\tthree\\x1b[1m');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    const text = 'Grüße, 世界 🎉 — “quoted” ok';
    expect(terminalLine(text)).toBe(text);
    expect(terminalText(text)).toBe(text);
  });
});
