/**
 * The one encoding of a keyset cursor over the task list (createdAt, id): opaque base64url text,
 * used by the dashboard API (`cursor`) and A2A ListTasks (`pageToken`). Decoding never throws:
 * anything this server did not issue is null, and the caller names its own field.
 */
export interface ListCursor {
  createdAt: string;
  id: string;
}

export function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

export function decodeListCursor(value: string): ListCursor | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown[];
    // Bounded, so nothing malformed or oversized reaches the database.
    if (typeof createdAt !== 'string' || createdAt.length > 40 || Number.isNaN(Date.parse(createdAt))) return null;
    if (typeof id !== 'string' || id.length > 200) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
