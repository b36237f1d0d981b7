/**
 * Text a caller chose (a request, a status message, a result, an error detail) printed raw to the
 * operator's terminal could set the window title, clear the screen or write the clipboard (OSC 52)
 * through escape sequences. Every human-readable CLI output goes through here;
 * `--json` output stays byte-exact (JSON.stringify escapes control characters itself).
 *
 * Each C0 control (but newline and tab where the text is multi-line), DEL, each C1 control and the
 * Unicode bidirectional overrides (which reorder what the operator reads) become a visible
 * `\xHH` / `\u{HHHH}` escape. A lone carriage return would overwrite the line, so it goes too.
 * Per character, so a sequence split across two streamed chunks is neutralised as well.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MULTI_LINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.codePointAt(0)!;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** For a table cell or a status line: no control character survives, newlines and tabs neither. */
export function terminalLine(text: string): string {
  return text.replace(SINGLE_LINE, visible);
}

/** For a result printed as text: newlines and tabs are kept, every other control is made visible. */
export function terminalText(text: string): string {
  return text.replace(MULTI_LINE, visible);
}
