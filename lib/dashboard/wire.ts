/**
 * Wire contracts between the dashboard's route handlers and the browser. Client-safe: zod and
 * type-only imports, so both lib/dashboard (server) and lib/query (browser) import it and the
 * two sides cannot drift.
 */
import { z } from 'zod';
import { isTerminalState, type Task } from '../protocol/types';
import { TimelineEventSchema, type CompactArtifactPayload, type TimelineEvent } from '../protocol/task-events';

/**
 * What the list shows as a task's state. "detached" is not an A2A state: it is a task that is
 * still running (non-terminal) after its caller stopped waiting for it.
 */
export const DISPLAY_STATES = [
  'submitted',
  'working',
  'detached',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
  'unknown',
] as const;
export const DisplayStateSchema = z.enum(DISPLAY_STATES);
export type DisplayState = z.infer<typeof DisplayStateSchema>;

/** The one definition lives in lib/protocol/types.ts; re-exported under the dashboard's name. */
export { isTerminalState as isTerminal } from '../protocol/types';

export function displayStateOf(state: string, detached: boolean): DisplayState {
  if (detached && !isTerminalState(state)) return 'detached';
  const parsed = DisplayStateSchema.safeParse(state);
  return parsed.success ? parsed.data : 'unknown';
}

export const DirectionSchema = z.enum(['inbound', 'outbound']);
export type Direction = z.infer<typeof DirectionSchema>;

/**
 * Who owns an inbound task: the creating API key (its id and name), "anonymous" (open mode) or
 * "self" (the built-in self peer). Null for outbound tasks, which only the operator reaches.
 */
export const TaskOwnerSchema = z.object({ id: z.string(), name: z.string() });
export type TaskOwner = z.infer<typeof TaskOwnerSchema>;

export const TaskSummarySchema = z.object({
  id: z.string(),
  contextId: z.string(),
  direction: DirectionSchema,
  agentSlug: z.string().nullable(),
  owner: TaskOwnerSchema.nullable(),
  peerName: z.string().nullable(),
  peerUrl: z.string().nullable(),
  state: z.string(),
  displayState: DisplayStateSchema,
  detached: z.boolean(),
  /** The first words of the request. */
  requestPreview: z.string(),
  /** The text of the current status message, shortened. */
  statusText: z.string(),
  endReason: z.string().nullable(),
  lastSeq: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().nullable(),
  detachedAt: z.string().nullable(),
});
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

export const TIME_RANGES = ['15m', '1h', '24h', '7d'] as const;
export const TimeRangeSchema = z.enum(TIME_RANGES);
export type TimeRange = z.infer<typeof TimeRangeSchema>;
export const TIME_RANGE_MS: Record<TimeRange, number> = {
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  '7d': 7 * 24 * 60 * 60_000,
};

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 200;

/** The list's filters, as they appear in the page URL and the API query string. */
export const TaskFilterSchema = z.object({
  state: DisplayStateSchema.optional(),
  direction: DirectionSchema.optional(),
  /** An agent slug (inbound) or peer name (outbound). */
  agent: z.string().trim().min(1).max(200).optional(),
  range: TimeRangeSchema.optional(),
  q: z.string().trim().min(1).max(200).optional(),
});
export type TaskFilter = z.infer<typeof TaskFilterSchema>;

export const TaskListQuerySchema = TaskFilterSchema.extend({
  cursor: z.string().max(500).optional(),
  /** Only tasks created at or before this instant: keeps a refetched list from shifting. */
  until: z.iso.datetime().optional(),
  /** Only tasks created strictly after this instant: "what is new since I loaded the list". */
  after: z.iso.datetime().optional(),
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
});
export type TaskListQuery = z.infer<typeof TaskListQuerySchema>;

export const TaskListResponseSchema = z.object({
  tasks: z.array(TaskSummarySchema),
  nextCursor: z.string().nullable(),
  /** Server time of the query: the anchor for later refetches of the same list. */
  asOf: z.string(),
});
export type TaskListResponse = z.infer<typeof TaskListResponseSchema>;

export const TaskCountsResponseSchema = z.object({
  counts: z.partialRecord(DisplayStateSchema, z.number().int()),
  total: z.number().int(),
});
export type TaskCountsResponse = z.infer<typeof TaskCountsResponseSchema>;

export { TimelineEventSchema, type TimelineEvent, type CompactArtifactPayload } from '../protocol/task-events';

const isObject = (v: unknown) => typeof v === 'object' && v !== null;

export const ChildTaskSchema = z.object({
  id: z.string(),
  direction: z.string(),
  state: z.string(),
  agentSlug: z.string().nullable(),
  peerName: z.string().nullable(),
  peerUrl: z.string().nullable(),
  remoteTaskId: z.string().nullable(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
});
export type ChildTask = z.infer<typeof ChildTaskSchema>;

/**
 * A remote hop of the tree (GET /api/tasks/:id/hops): for one outbound child, the task it
 * reached at the peer, its state there and the peer's own children of it (a Switchboard peer
 * reports them), or why the peer could not be read.
 */
export const RemoteHopSchema = z.object({
  taskId: z.string(),
  remoteTaskId: z.string(),
  state: z.string().nullable(),
  children: z.array(ChildTaskSchema),
  error: z.string().nullable(),
});
export type RemoteHop = z.infer<typeof RemoteHopSchema>;
export const TaskHopsSchema = z.object({ hops: z.array(RemoteHopSchema) });
export type TaskHops = z.infer<typeof TaskHopsSchema>;

export const TaskDetailSchema = z.object({
  task: TaskSummarySchema.extend({
    requestText: z.string(),
    remoteTaskId: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    /** W3C trace id of the task's trace (OpenTelemetry), when known. */
    traceId: z.string().nullable(),
    /** The delegation parent this hub linked itself (a task of its own), or null. */
    parentTaskId: z.string().nullable(),
    /**
     * The parent the caller named in `metadata.switchboard.parentTask` when this hub did not make
     * that link (another hub, or any A2A caller): its claim, shown as text, never as a link.
     */
    callerParent: z.object({ taskId: z.string(), url: z.string().nullable() }).nullable(),
  }),
  /** Tasks dispatched for this one (delegation graph), with state and times. */
  children: z.array(ChildTaskSchema),
  /** The A2A Task as tasks/get would return it (accumulated artifacts, full history). */
  snapshot: z.custom<Task>(isObject),
  /** Every event up to task.lastSeq, oldest first. */
  events: z.array(TimelineEventSchema),
});
export type TaskDetail = z.infer<typeof TaskDetailSchema>;

/**
 * GET /api/tasks/export: one page of tasks as JSON Lines, newest first (the list's keyset order),
 * each line a whole task (TaskExportLineSchema); the next page's cursor comes in a header, read
 * before the body is streamed. `since`: only tasks created at or after it.
 */
export const EXPORT_LIMIT_DEFAULT = 200;
export const EXPORT_LIMIT_MAX = 1_000;
export const EXPORT_NEXT_CURSOR_HEADER = 'Switchboard-Next-Cursor';
export const TaskExportQuerySchema = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
  state: DisplayStateSchema.optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(EXPORT_LIMIT_MAX).default(EXPORT_LIMIT_DEFAULT),
});
export type TaskExportQuery = z.infer<typeof TaskExportQuerySchema>;
/** One exported task: the task page's detail with every event whole (artifact chunks not compacted). */
export const TaskExportLineSchema = TaskDetailSchema;
export type TaskExportLine = TaskDetail;

/** Per-task SSE (`/api/tasks/:id/events`): event names and their data. */
export const TASK_STREAM_EVENTS = { snapshot: 'snapshot', event: 'task-event', end: 'end' } as const;
/** The `end` frame's data: the state the task ended in and its last seq. */
export interface TaskStreamEnd {
  state: string;
  lastSeq: number;
}

/** Global feed SSE (`/api/feed`): batches of changed task summaries. */
export const FEED_EVENT = 'tasks';
export const FeedBatchSchema = z.object({ tasks: z.array(TaskSummarySchema) });
export type FeedBatch = z.infer<typeof FeedBatchSchema>;

export const RoleSchema = z.enum(['viewer', 'operator']);
export type Role = z.infer<typeof RoleSchema>;

export const SessionInfoSchema = z.object({
  authenticated: z.boolean(),
  role: RoleSchema.nullable(),
  via: z.enum(['open', 'session', 'token']).nullable(),
  /** No token configured: anyone reaching this loopback-bound server is an operator. */
  open: z.boolean(),
  expiresAt: z.string().nullable(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const LoginRequestSchema = z.object({ token: z.string().min(1, 'enter a token').max(4096) });

export const ApiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/**
 * Drops an artifact chunk's content from a timeline event (after it has been accumulated), so a
 * task with thousands of chunks does not hold its result twice.
 */
export function compactEvent(event: TimelineEvent): TimelineEvent {
  if (event.type !== 'artifact' || 'compacted' in event.payload) return event;
  const { artifact, append, lastChunk } = event.payload;
  // Peer data: tolerate a chunk without parts or a text part without text.
  const textLength = (artifact.parts ?? []).reduce((n, p) => n + (p.kind === 'text' && typeof p.text === 'string' ? p.text.length : 0), 0);
  const payload: CompactArtifactPayload = {
    compacted: true,
    artifactId: artifact.artifactId,
    ...(artifact.name ? { name: artifact.name } : {}),
    append: Boolean(append),
    lastChunk: Boolean(lastChunk),
    textLength,
  };
  return { ...event, payload };
}

/** One config-file problem, as GET /api/status reports it (lib/config/file-config.ts ConfigIssue). */
export const ConfigIssueSchema = z.object({
  file: z.string().nullable(),
  entry: z.string().nullable(),
  key: z.string(),
  message: z.string(),
  text: z.string(),
});
export type ConfigIssueWire = z.infer<typeof ConfigIssueSchema>;

/** GET /api/status: what the hub serves and what it could not, for operators and probes. */
export const StatusResponseSchema = z.object({
  ok: z.boolean(),
  agents: z.array(z.string()),
  configErrors: z.array(ConfigIssueSchema),
});
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
