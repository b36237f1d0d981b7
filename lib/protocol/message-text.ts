/**
 * The text of a message: its text parts joined by a space. Tolerates untyped JSON (a stored
 * status message, a peer's reply), since every caller reads messages that crossed a boundary.
 * Client-safe.
 */
export function messageText(message: unknown): string {
  if (!message || typeof message !== 'object') return '';
  const parts = (message as { parts?: unknown }).parts;
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((p): p is { text: string } => !!p && typeof p === 'object' && p.kind === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join(' ');
}
