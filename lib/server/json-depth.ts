/**
 * The deepest nesting a JSON-RPC body may have. JSON.parse itself copes with deep input, but
 * every recursive walk after it (validation, copying, serialising) would overflow the stack on a
 * body nested thousands of levels deep, which is a client's mistake and gets a client error.
 */
export const MAX_JSON_DEPTH = 64;

/** How deeply `text` nests arrays and objects, in one linear pass (brackets in strings do not count). */
export function jsonDepth(text: string, stopAbove = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}
