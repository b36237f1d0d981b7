/**
 * What the peers API accepts (zod), and what it returns: never a secret. Auth comes
 * back as `{type, configured, header?}`; extra headers only by name, since they may carry keys.
 */
import { z } from 'zod';
import type { PeerRecord } from '../db/peer-repo';
import { CardKeyPinSchema, CredentialOriginsSchema, type CardKeyPin } from '../config/file-config';
import { TimeoutSecondsSchema } from './timeouts';
import type { ProtocolVersion } from '../protocol/types';
import { HEADER_NAME, PeerAuthInputSchema } from '../protocol/peer-auth';

/** Headers the client sets itself; a peer's extra headers may not replace them. */
export const PROTECTED_HEADERS = ['content-type', 'accept', 'a2a-version', 'content-length', 'host', 'transfer-encoding', 'connection'];

export const PeerNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'expected 1-63 letters, digits, dot, dash or underscore');

const PeerUrlSchema = z.url({ protocol: /^https?$/, message: 'expected an absolute http(s) URL' });

export const PeerHeadersSchema = z
  .record(z.string().regex(HEADER_NAME, 'expected an HTTP header name'), z.string())
  .refine((h) => !Object.keys(h).some((k) => PROTECTED_HEADERS.includes(k.toLowerCase())), {
    message: `may not set ${PROTECTED_HEADERS.join(', ')} (the client sets them)`,
  });

export const PeerCreateSchema = z.strictObject({
  name: PeerNameSchema,
  url: PeerUrlSchema,
  auth: PeerAuthInputSchema.default({ type: 'none' }),
  headers: PeerHeadersSchema.default({}),
  credentialOrigins: CredentialOriginsSchema.default([]),
  /** Pins the key the peer's card must be signed with (decision 200). */
  cardKey: CardKeyPinSchema.nullable().optional(),
  timeoutSeconds: TimeoutSecondsSchema.nullable().optional(),
  notes: z.string().max(2000).nullable().optional(),
});
export type PeerCreateInput = z.infer<typeof PeerCreateSchema>;

/** In a patch the secret may be left out (or empty) to keep the stored one: forms never see it. */
export const PeerAuthPatchSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().optional() }),
  z.strictObject({
    type: z.literal('apiKey'),
    header: z.string().regex(HEADER_NAME, 'expected an HTTP header name').default('X-API-Key'),
    key: z.string().optional(),
  }),
]);
export type PeerAuthPatch = z.infer<typeof PeerAuthPatchSchema>;

export const PeerPatchSchema = z.strictObject({
  /** Accepted when it is the peer's own name (forms send it); peers are not renamed. */
  name: PeerNameSchema.optional(),
  url: PeerUrlSchema.optional(),
  auth: PeerAuthPatchSchema.optional(),
  headers: PeerHeadersSchema.optional(),
  credentialOrigins: CredentialOriginsSchema.optional(),
  /** null removes the pin. */
  cardKey: CardKeyPinSchema.nullable().optional(),
  timeoutSeconds: TimeoutSecondsSchema.nullable().optional(),
  notes: z.string().max(2000).nullable().optional(),
});
export type PeerPatchInput = z.infer<typeof PeerPatchSchema>;

export interface PublicPeer {
  name: string;
  url: string;
  normalizedUrl: string;
  source: PeerRecord['source'];
  /** `oauth2`: the client's id and settings, never its secret. */
  auth: { type: PeerRecord['authType']; configured: boolean; header?: string; oauth2?: { clientId: string; tokenUrl: string | null; scopes: string[] } };
  headerNames: string[];
  /** Origins besides the URL's own that receive the auth and headers (opt-in). */
  credentialOrigins: string[];
  /** The pinned card key (public material): the peer's card is verified against it. */
  cardKey: CardKeyPin | null;
  timeoutSeconds: number | null;
  notes: string | null;
  card: {
    protocolVersion: ProtocolVersion | null;
    endpointUrl: string | null;
    name: string | null;
    skills: { id: string; name: string }[];
    /** The card's `capabilities.streaming`; null when the card does not say. */
    streaming: boolean | null;
    fetchedAt: string | null;
  } | null;
  createdAt: string;
  updatedAt: string;
}

function cardStreaming(card: Record<string, unknown>): boolean | null {
  const capabilities = card.capabilities as Record<string, unknown> | undefined;
  return typeof capabilities?.streaming === 'boolean' ? capabilities.streaming : null;
}

function cardSummary(p: PeerRecord): PublicPeer['card'] {
  if (!p.card) return null;
  const skills = Array.isArray(p.card.skills) ? (p.card.skills as Record<string, unknown>[]) : [];
  return {
    protocolVersion: p.protocolVersion,
    endpointUrl: p.endpointUrl,
    name: typeof p.card.name === 'string' ? p.card.name : null,
    skills: skills.map((s) => ({ id: String(s?.id ?? ''), name: String(s?.name ?? s?.id ?? '') })),
    streaming: cardStreaming(p.card),
    fetchedAt: p.cardFetchedAt,
  };
}

/** The only shape a peer leaves the server in. */
export function toPublicPeer(p: PeerRecord): PublicPeer {
  return {
    name: p.name,
    url: p.url,
    normalizedUrl: p.normalizedUrl,
    source: p.source,
    auth: {
      type: p.authType,
      configured: p.authType !== 'none' && Boolean(p.authSecret),
      ...(p.authType === 'apiKey' && p.authHeader ? { header: p.authHeader } : {}),
      ...(p.authType === 'oauth2' && p.oauth2 ? { oauth2: { clientId: p.oauth2.clientId, tokenUrl: p.oauth2.tokenUrl ?? null, scopes: p.oauth2.scopes ?? [] } } : {}),
    },
    headerNames: Object.keys(p.headers),
    credentialOrigins: p.credentialOrigins,
    cardKey: p.cardKey,
    timeoutSeconds: p.timeoutSeconds,
    notes: p.notes,
    card: cardSummary(p),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
