/**
 * Every query on peers (outbound A2A targets). Records carry the secret because the client
 * needs it to call the peer; lib/peers/registry.ts strips it before anything leaves the server.
 * The secret and the extra headers are stored encrypted (secret-box.ts) and decrypted only here.
 */
import { db } from './client';
import { fromJson, toJson } from './json';
import { checkRowSecrets, openSecret, sealSecret, type ResealReport } from './secret-box';
import type { ProtocolVersion } from '../protocol/types';
import type { CardKeyPin, OAuth2ClientConfig } from '../config/file-config';

const SECRET_COLUMN = 'Peer.authSecret' as const;
const HEADERS_COLUMN = 'Peer.headers' as const;

export type PeerAuthType = 'none' | 'bearer' | 'apiKey' | 'oauth2';

/** An oauth2 peer's client settings; the client secret is `authSecret` (sealed). */
export type PeerOAuth2 = Omit<OAuth2ClientConfig, 'type' | 'clientSecret' | 'clientSecretEnv'>;
export type PeerSource = 'api' | 'config' | 'builtin';

/** The fields a caller sets; the card cache is written separately (savePeerCard). */
export interface PeerInput {
  name: string;
  url: string;
  normalizedUrl: string;
  authType: PeerAuthType;
  authSecret: string | null;
  authHeader: string | null;
  /** Set for authType oauth2 (the client secret is authSecret). */
  oauth2?: PeerOAuth2 | null;
  headers: Record<string, string>;
  /** Origins besides the URL's own that may receive the auth and headers (explicit opt-in). */
  credentialOrigins: string[];
  /** The key the peer's card must be signed with; null: the card is not verified. */
  cardKey: CardKeyPin | null;
  timeoutSeconds: number | null;
  notes: string | null;
  source: PeerSource;
}

/** How a peer authenticates, as stored. */
export type PeerAuthFields = Pick<PeerInput, 'authType' | 'authSecret' | 'authHeader' | 'oauth2'>;

export interface PeerRecord extends PeerInput {
  oauth2: PeerOAuth2 | null;
  card: Record<string, unknown> | null;
  protocolVersion: ProtocolVersion | null;
  endpointUrl: string | null;
  cardFetchedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

type PeerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof db>['peer']['findUnique']>>>;

function toRecord(row: PeerRow): PeerRecord {
  return {
    name: row.name,
    url: row.url,
    normalizedUrl: row.normalizedUrl,
    authType: (['bearer', 'apiKey', 'oauth2'].includes(row.authType) ? row.authType : 'none') as PeerAuthType,
    authSecret: openSecret(row.authSecret, SECRET_COLUMN),
    authHeader: row.authHeader,
    oauth2: fromJson<PeerOAuth2>(row.oauth2),
    headers: fromJson<Record<string, string>>(openSecret(row.headers, HEADERS_COLUMN)) ?? {},
    credentialOrigins: fromJson<string[]>(row.credentialOrigins) ?? [],
    cardKey: fromJson<CardKeyPin>(row.cardKey),
    timeoutSeconds: row.timeoutSeconds,
    notes: row.notes,
    source: (['config', 'builtin'].includes(row.source) ? row.source : 'api') as PeerSource,
    card: fromJson<Record<string, unknown>>(row.card),
    protocolVersion: row.protocolVersion === '1.0' || row.protocolVersion === '0.3' ? row.protocolVersion : null,
    endpointUrl: row.endpointUrl,
    cardFetchedAt: row.cardFetchedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function inputData(p: Partial<PeerInput>) {
  return {
    name: p.name,
    url: p.url,
    normalizedUrl: p.normalizedUrl,
    authType: p.authType,
    authSecret: p.authSecret === undefined ? undefined : sealSecret(p.authSecret, SECRET_COLUMN),
    authHeader: p.authHeader,
    oauth2: p.oauth2 === undefined ? undefined : toJson(p.oauth2),
    headers: p.headers === undefined ? undefined : sealSecret(toJson(p.headers), HEADERS_COLUMN),
    credentialOrigins: p.credentialOrigins === undefined ? undefined : p.credentialOrigins.length ? toJson(p.credentialOrigins) : null,
    cardKey: p.cardKey === undefined ? undefined : toJson(p.cardKey),
    timeoutSeconds: p.timeoutSeconds,
    notes: p.notes,
    source: p.source,
  };
}

export async function listPeerRecords(): Promise<PeerRecord[]> {
  return (await db().peer.findMany({ orderBy: { name: 'asc' } })).map(toRecord);
}

export async function findPeerRecord(name: string): Promise<PeerRecord | null> {
  const row = await db().peer.findUnique({ where: { name } });
  return row ? toRecord(row) : null;
}

export async function findPeerByNormalizedUrl(normalizedUrl: string): Promise<PeerRecord | null> {
  const row = await db().peer.findUnique({ where: { normalizedUrl } });
  return row ? toRecord(row) : null;
}

export async function insertPeerRecord(p: PeerInput): Promise<PeerRecord> {
  const now = new Date();
  return toRecord(await db().peer.create({ data: { ...inputData(p), name: p.name, url: p.url, normalizedUrl: p.normalizedUrl, createdAt: now, updatedAt: now } }));
}

/**
 * Updates the given fields; a changed URL clears the cached card (it described another URL), and
 * so does a changed card key pin (the cached card was not verified against it).
 */
export async function updatePeerRecord(name: string, p: Partial<PeerInput>): Promise<PeerRecord | null> {
  const urlChanged = p.normalizedUrl !== undefined || p.cardKey !== undefined ? { card: null, protocolVersion: null, endpointUrl: null, cardFetchedAt: null } : {};
  const updated = await db().peer.updateMany({ where: { name }, data: { ...inputData(p), ...urlChanged, updatedAt: new Date() } });
  return updated.count ? findPeerRecord(p.name ?? name) : null;
}

export async function deletePeerRecord(name: string): Promise<boolean> {
  return (await db().peer.deleteMany({ where: { name } })).count > 0;
}

/** Removes peers of a source that are not in `keep` (config entries removed from the file). */
export async function deletePeersOfSourceExcept(source: PeerSource, keep: string[]): Promise<number> {
  return (await db().peer.deleteMany({ where: { source, name: { notIn: keep } } })).count;
}

export interface PeerCardCache {
  card: Record<string, unknown>;
  protocolVersion: ProtocolVersion;
  endpointUrl: string;
}

export async function savePeerCard(name: string, cache: PeerCardCache): Promise<void> {
  await db().peer.updateMany({
    where: { name },
    data: { card: JSON.stringify(cache.card), protocolVersion: cache.protocolVersion, endpointUrl: cache.endpointUrl, cardFetchedAt: new Date() },
  });
}

/**
 * Seals again the secrets and headers not sealed with the current key (plaintext rows from an
 * older version, rows sealed with SWITCHBOARD_SECRET_KEY_PREVIOUS); names the peers whose secrets
 * no accepted key opens. The update matches the values read, so two instances starting together
 * never overwrite each other.
 */
export async function sealPeerSecretsAgain(): Promise<ResealReport> {
  const rows = await db().peer.findMany({ select: { name: true, authSecret: true, headers: true } });
  const report: ResealReport = { resealed: 0, unreadable: [] };
  for (const row of rows) {
    const check = checkRowSecrets({ [SECRET_COLUMN]: row.authSecret, [HEADERS_COLUMN]: row.headers });
    if (check.kind === 'unreadable') report.unreadable.push(`peer "${row.name}" (${check.columns.join(', ')})`);
    if (check.kind !== 'stale') continue;
    const data = { authSecret: check.update[SECRET_COLUMN] ?? null, headers: check.update[HEADERS_COLUMN] ?? null };
    report.resealed += (await db().peer.updateMany({ where: { name: row.name, authSecret: row.authSecret, headers: row.headers }, data })).count;
  }
  return report;
}
