/**
 * The task event log, typed: one payload shape per event `type`, shared by the writer (lib/engine,
 * both directions), the readers (snapshot, A2A streams), the dashboard SSE and the browser. Client-safe:
 * zod and types only.
 *
 * `taskSummaryChange` is the one rule for how an event changes a task's summary (state, detached,
 * status message, end). The server's writer derives the row's `detached` flag from it and the
 * browser applies it to its cached detail, so the two cannot disagree.
 */
import { z } from 'zod';
import type { ArtifactChunk, Message, TaskState } from './types';
import { isTerminalState } from './types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MessageSchema = z.custom<Message>((v) => isRecord(v) && Array.isArray(v.parts));
const ChunkSchema = z.custom<ArtifactChunk>((v) => isRecord(v) && isRecord(v.artifact));
// Peer data passes through status and detach payloads: tolerate null where a peer may send it.
const MetadataSchema = z.record(z.string(), z.unknown());

export const SubmittedPayloadSchema = z.looseObject({
  message: MessageSchema,
  /** Inbound: who sent it (the API key's name). */
  peer: z.string().optional(),
  /** Outbound: the dispatch mode and the resolved target. */
  mode: z.string().optional(),
  target: z.unknown().optional(),
});

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

export const MessagePayloadSchema = z.looseObject({
  message: MessageSchema,
  peer: z.string().optional(),
  mode: z.string().optional(),
  /** A message the peer sent (outbound): not the caller's input, so no new turn. */
  remote: z.boolean().optional(),
});

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

/** What the outbound client noted about the peer; `event` says which note it is. */
export const RemotePayloadSchema = z.looseObject({
  event: z.string(),
  note: z.string().optional(),
  reason: z.string().optional(),
  via: z.string().optional(),
  warning: z.string().optional(),
  phase: z.string().optional(),
  answer: z.string().optional(),
  remoteTaskId: z.string().optional(),
  remoteContextId: z.string().optional(),
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

/** How one event changes a task's summary; absent fields stay as they were. */
export interface TaskSummaryChange {
  state?: TaskState;
  detached?: boolean;
  /** The status message now shown; null clears it. */
  statusMessage?: Message | null;
  /** Set when the event ends the task. */
  ended?: { reason: string | null };
}

type SummaryInput = TaskEventBody | TimelineEvent;

/**
 * The one rule. A status sets the state (and its message, and the end); a detach marks the
 * task detached (still working); a caller's message (inbound continue or outbound follow-up) starts a new turn,
 * so the task is no longer detached and the old status message is cleared. A message the peer
 * sent (`remote`) is not a new turn and changes nothing.
 */
export function taskSummaryChange(event: SummaryInput & { state?: string | null }): TaskSummaryChange {
  switch (event.type) {
    case 'status': {
      if (!event.state) return {};
      const state = event.state as TaskState;
      return {
        state,
        ...(event.payload.message ? { statusMessage: event.payload.message } : {}),
        ...(isTerminalState(state) ? { ended: { reason: event.payload.reason ?? null } } : {}),
      };
    }
    case 'detached':
      return {
        detached: true,
        ...(event.state ? { state: event.state as TaskState } : {}),
        ...(event.payload.message ? { statusMessage: event.payload.message } : {}),
      };
    case 'message':
      return event.payload.remote ? {} : { detached: false, statusMessage: null };
    default:
      return {};
  }
}
