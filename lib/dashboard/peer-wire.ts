/**
 * The peers and dispatch API as the browser sees them (lib/peers and lib/engine/outbound, routes
 * /api/peers, /api/peers/:name, /api/peers/:name/test, /api/dispatch). Client-safe mirrors of
 * lib/peers' PublicPeer; lenient where that contract may still grow (extra keys pass).
 */
import { z } from 'zod';
import type { DispatchMode } from '../protocol/dispatch-modes';
import type { PeerAuthInput } from '../protocol/peer-auth';

export const PeerAuthTypeSchema = z.enum(['none', 'bearer', 'apiKey']);
export type PeerAuthType = z.infer<typeof PeerAuthTypeSchema>;

export const PeerSchema = z.looseObject({
  name: z.string(),
  url: z.string(),
  normalizedUrl: z.string().optional(),
  source: z.string().default('api'),
  /** Secrets never come back: only whether one is configured. */
  auth: z.looseObject({ type: z.string(), configured: z.boolean(), header: z.string().optional() }),
  headerNames: z.array(z.string()).default([]),
  timeoutSeconds: z.number().nullable().default(null),
  notes: z.string().nullable().default(null),
  card: z
    .looseObject({
      protocolVersion: z.string().nullable().optional(),
      endpointUrl: z.string().nullable().optional(),
      name: z.string().nullable().optional(),
      skills: z.array(z.looseObject({ id: z.string(), name: z.string() })).default([]),
      fetchedAt: z.string().nullable().optional(),
    })
    .nullable()
    .default(null),
});
export type Peer = z.infer<typeof PeerSchema>;

/** GET /api/peers answers {peers: [...]} (a bare array is accepted too). */
export const PeerListSchema = z.union([z.object({ peers: z.array(PeerSchema) }), z.array(PeerSchema).transform((peers) => ({ peers }))]);

export const PeerOneSchema = z.union([z.object({ peer: PeerSchema, warnings: z.array(z.string()).optional() }), PeerSchema.transform((peer) => ({ peer, warnings: undefined }))]);

/** POST /api/peers/:name/test: the card, its version and skills, and whether the peer answered. */
export const PeerTestSchema = z.looseObject({
  peer: z.string(),
  reachable: z.boolean(),
  latencyMs: z.number(),
  cardUrl: z.string().optional(),
  name: z.string().optional(),
  protocolVersion: z.string().optional(),
  versions: z.array(z.string()).optional(),
  endpointUrl: z.string().optional(),
  streaming: z.boolean().optional(),
  skills: z.array(z.looseObject({ id: z.string(), name: z.string(), description: z.string().optional() })).optional(),
  timeoutSeconds: z.number(),
  timeoutSource: z.string(),
  responseWindowSeconds: z.number().optional(),
  warnings: z.array(z.string()).default([]),
  error: z.string().optional(),
});
export type PeerTest = z.infer<typeof PeerTestSchema>;

export interface PeerInput {
  name?: string;
  url?: string;
  auth?: PeerAuthInput;
  headers?: Record<string, string>;
  timeoutSeconds?: number | null;
  notes?: string | null;
}

export interface DispatchInput {
  peer?: string;
  url?: string;
  text?: string;
  /** A data part (a JSON object), e.g. an answer that is not text. */
  data?: Record<string, unknown>;
  mode: DispatchMode;
  timeoutSeconds?: number;
  contextId?: string;
  taskId?: string;
}

/** warnings: what was accepted but is unwise (a timeout below the floor). */
export const DispatchResponseSchema = z.looseObject({ taskId: z.string(), warnings: z.array(z.string()).optional() });
