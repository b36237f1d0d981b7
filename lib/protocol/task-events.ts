/**
 * The task event log, typed: one payload shape per event `type`, shared by the writer (lib/engine,
 * both directions), the readers (snapshot, A2A streams), the dashboard SSE and the browser. Client-safe:
 * zod and types only.
 * How an event changes a task's summary is summary-rule.ts.
 */
import { z } from 'zod';
import type { ArtifactChunk, Message } from './types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MessageSchema = z.custom<Message>((v) => isRecord(v) && Array.isArray(v.parts));
const ChunkSchema = z.custom<ArtifactChunk>((v) => isRecord(v) && isRecord(v.artifact));
// Peer data passes through status and detach payloads: tolerate null where a peer may send it.
const MetadataSchema = z.record(z.string(), z.unknown());

/** A message sent to a task, the first (submitted) or a later one: the same writers, the same fields. */
const SENT_MESSAGE = {
  message: MessageSchema,
  /** Inbound: who sent it (the API key's name). */
  peer: z.string().optional(),
  /** Outbound: the dispatch mode. */
  mode: z.string().optional(),
};

/** The payload of a sent message, with what only one of its two events carries. */
const sentMessage = <T extends z.ZodRawShape>(extra: T) => z.looseObject({ ...SENT_MESSAGE, ...extra });

/** Outbound: `target` is the resolved target. */
export const SubmittedPayloadSchema = sentMessage({ target: z.unknown().optional() });

export const StatusPayloadSchema = z.looseObject({
  message: MessageSchema.optional(),
  /** Why a task ended (terminal statuses). */
  reason: z.string().optional(),
  /** 'message': the agent answered with a direct message (the caller got a Message, no task). */
  reply: z.literal('message').optional(),
  metadata: MetadataSchema.nullish(),
  /** Outbound: the state and time as the peer reported them. */
  remote: z.looseObject({ state: z.string(), timestamp: z.string().nullish() }).optional(),
  /** Outbound: the connection the first status was made over. */
  connected: z.looseObject({ version: z.string(), endpoint: z.string(), streaming: z.boolean() }).optional(),
});

/** `remote`: a message the peer sent (outbound), not the caller's input, so no new turn. */
export const MessagePayloadSchema = sentMessage({ remote: z.boolean().optional() });

export const DetachedPayloadSchema = z.looseObject({
  reason: z.string(),
  /** How long a late result is still accepted after the detach (inbound). */
  graceMs: z.number().optional(),
  message: MessageSchema.optional(),
  metadata: MetadataSchema.nullish(),
});

export const ReattachedPayloadSchema = z.looseObject({ via: z.string() });

export const FollowErrorPayloadSchema = z.looseObject({
  phase: z.string(),
  error: z.string(),
  attempt: z.number().optional(),
  retryInMs: z.number().optional(),
});

/** Optional string fields, by name: most of a peer note is text the client may or may not have. */
const optionalStrings = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, z.string().optional()])) as Record<K, z.ZodOptional<z.ZodString>>;

/** What the outbound client noted about the peer; `event` says which note it is. */
export const RemotePayloadSchema = z.looseObject({
  event: z.string(),
  ...optionalStrings('note', 'reason', 'via', 'warning', 'phase', 'answer', 'remoteTaskId', 'remoteContextId'),
  timeoutMs: z.number().optional(),
});

const PAYLOADS = {
  submitted: SubmittedPayloadSchema,
  status: StatusPayloadSchema,
  artifact: ChunkSchema,
  message: MessagePayloadSchema,
  detached: DetachedPayloadSchema,
  reattached: ReattachedPayloadSchema,
  'follow-error': FollowErrorPayloadSchema,
  remote: RemotePayloadSchema,
} as const;

export type EventType = keyof typeof PAYLOADS;
export const EVENT_TYPES = Object.keys(PAYLOADS) as EventType[];
export type EventPayload<T extends EventType> = z.infer<(typeof PAYLOADS)[T]>;

/** An event's type and payload, discriminated by `type`. */
export type TaskEventBody = { [T in EventType]: { type: T; payload: EventPayload<T> } }[EventType];

/** What the timeline keeps of an artifact chunk once accumulated: its content lives in the artifact. */
export const CompactArtifactPayloadSchema = z.object({
  compacted: z.literal(true),
  artifactId: z.string(),
  name: z.string().optional(),
  append: z.boolean(),
  lastChunk: z.boolean(),
  textLength: z.number(),
});
export type CompactArtifactPayload = z.infer<typeof CompactArtifactPayloadSchema>;

const timelineFields = { seq: z.number().int(), state: z.string().nullable(), at: z.string() };

/** A stored event as the dashboard sends it; an artifact's content may be compacted away. */
export const TimelineEventSchema = z.discriminatedUnion('type', [
  z.object({ ...timelineFields, type: z.literal('submitted'), payload: SubmittedPayloadSchema }),
  z.object({ ...timelineFields, type: z.literal('status'), payload: StatusPayloadSchema }),
  z.object({ ...timelineFields, type: z.literal('artifact'), payload: z.union([CompactArtifactPayloadSchema, ChunkSchema]) }),
  z.object({ ...timelineFields, type: z.literal('message'), payload: MessagePayloadSchema }),
  z.object({ ...timelineFields, type: z.literal('detached'), payload: DetachedPayloadSchema }),
  z.object({ ...timelineFields, type: z.literal('reattached'), payload: ReattachedPayloadSchema }),
  z.object({ ...timelineFields, type: z.literal('follow-error'), payload: FollowErrorPayloadSchema }),
  z.object({ ...timelineFields, type: z.literal('remote'), payload: RemotePayloadSchema }),
]);
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;
