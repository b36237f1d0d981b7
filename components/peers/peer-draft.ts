/**
 * The peer form's draft and how it becomes a request. Secrets are write-only: an edit sends
 * `auth` only when the operator typed a new secret or changed the auth type, so leaving the
 * field empty keeps the stored one; headers likewise only when new ones were entered.
 */
import type { Peer, PeerInput } from '@/lib/dashboard/peer-wire';
import type { PeerAuthInput } from '@/lib/protocol/peer-auth';

export interface PeerDraft {
  name: string;
  url: string;
  authType: 'none' | 'bearer' | 'apiKey';
  secret: string;
  authHeader: string;
  headers: string;
  timeoutSeconds: string;
  notes: string;
}

export function draftFrom(peer: Peer | null): PeerDraft {
  const type = peer?.auth.type === 'bearer' || peer?.auth.type === 'apiKey' ? peer.auth.type : 'none';
  return {
    name: peer?.name ?? '',
    url: peer?.url ?? '',
    authType: type,
    secret: '',
    authHeader: peer?.auth.header ?? 'X-API-Key',
    headers: '',
    timeoutSeconds: peer?.timeoutSeconds != null ? String(peer.timeoutSeconds) : '',
    notes: peer?.notes ?? '',
  };
}

/** "Name: value" per line. */
export function parseHeaders(text: string): Record<string, string> | { error: string } {
  const out: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `headers: line ${i + 1} should look like "Name: value"` };
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

function authInput(d: PeerDraft): PeerAuthInput {
  if (d.authType === 'bearer') return { type: 'bearer', token: d.secret };
  if (d.authType === 'apiKey') return { type: 'apiKey', header: d.authHeader.trim() || 'X-API-Key', key: d.secret };
  return { type: 'none' };
}

export function toPeerInput(d: PeerDraft, existing: Peer | null): { input: PeerInput } | { field: string; message: string } {
  const timeout = d.timeoutSeconds.trim();
  const timeoutSeconds = timeout ? Number(timeout) : null;
  if (timeoutSeconds !== null && !Number.isFinite(timeoutSeconds)) return { field: 'timeoutSeconds', message: 'timeoutSeconds: enter a number of seconds' };
  const headers = d.headers.trim() ? parseHeaders(d.headers) : null;
  if (headers && 'error' in headers) return { field: 'headers', message: String(headers.error) };
  const authChanged = !existing || d.authType !== existing.auth.type || d.secret !== '' || (d.authType === 'apiKey' && d.authHeader !== (existing.auth.header ?? ''));
  const input: PeerInput = {
    ...(existing ? {} : { name: d.name.trim() }),
    url: d.url.trim(),
    ...(authChanged ? { auth: authInput(d) } : {}),
    ...(headers ? { headers: headers as Record<string, string> } : {}),
    ...(existing ? { timeoutSeconds, notes: d.notes.trim() || null } : { ...(timeoutSeconds !== null ? { timeoutSeconds } : {}), ...(d.notes.trim() ? { notes: d.notes.trim() } : {}) }),
  };
  return { input };
}
