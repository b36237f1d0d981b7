/**
 * The switchboard.worker/1 wire protocol (docs/worker-protocol.md): one JSON object per
 * LF-terminated UTF-8 line on the worker's stdin (hub → worker) and stdout (worker → hub).
 * Unknown keys are ignored, so a minor addition never breaks a worker; an unknown frame type
 * is a protocol error, because we cannot know what the worker meant by it.
 */
import { z } from 'zod';
import type { ContextArtifact } from '../../agent-runner';
import type { Message, Part } from '../../protocol/types';
import { ELLIPSIS } from '../../protocol/wide-chars';

export const WORKER_PROTOCOL = 'switchboard.worker/1';

const metadataSchema = z.record(z.string(), z.unknown());

const partSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), metadata: metadataSchema.optional() }),
  z.object({
    kind: z.literal('file'),
    file: z
      .object({ bytes: z.string().optional(), uri: z.string().optional(), name: z.string().optional(), mimeType: z.string().optional() })
      .refine((f) => f.bytes !== undefined || f.uri !== undefined, 'a file part needs "bytes" or "uri"'),
    metadata: metadataSchema.optional(),
  }),
  z.object({ kind: z.literal('data'), data: metadataSchema, metadata: metadataSchema.optional() }),
]);

const taskId = z.string().min(1);
/** Content is `text` (a shorthand for one text part), `parts`, or both (text first). */
const content = { text: z.string().optional(), parts: z.array(partSchema).optional() };

const workerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), protocol: z.string(), worker: z.string().optional() }),
  z.object({ type: z.literal('progress'), taskId, text: z.string(), metadata: metadataSchema.optional() }),
  z.object({
    type: z.literal('artifact'),
    taskId,
    artifactId: z.string().min(1),
    name: z.string().optional(),
    ...content,
    append: z.boolean().optional(),
    lastChunk: z.boolean().optional(),
  }),
  z.object({ type: z.literal('input-required'), taskId, ...content }),
  z.object({ type: z.literal('final'), taskId, ...content, metadata: metadataSchema.optional() }),
  z.object({ type: z.literal('message'), taskId, ...content, metadata: metadataSchema.optional() }),
  z.object({ type: z.literal('error'), taskId, message: z.string() }),
  z.object({ type: z.literal('aborted'), taskId }),
]);

export type WorkerFrame = z.output<typeof workerFrameSchema>;
export type WorkerFrameType = WorkerFrame['type'];
const WORKER_FRAME_TYPES: readonly string[] = workerFrameSchema.options.map((o) => o.shape.type.value);

/** Hub → worker. */
export interface PromptFrame {
  type: 'prompt';
  taskId: string;
  contextId: string;
  agent: string;
  peer: string;
  /** The text parts of the message, joined: what most workers need. */
  text: string;
  /** The whole message, for workers that handle files or data. */
  parts: Part[];
  /** The caller's message id, as sent. */
  messageId: string;
  /** The message's own metadata, when it has some. */
  metadata?: Record<string, unknown>;
  /** Tasks the caller refers to, when it names some. */
  referenceTaskIds?: string[];
  /** 1 for the message that created the task, 2 for the first answer after input-required, … */
  turn: number;
  /** The context's earlier messages, oldest first, each with its taskId (bounded: historyMax*). */
  history: Message[];
  /** The accumulated artifacts of the context's tasks, each with its taskId (same bounds). */
  artifacts: ContextArtifact[];
  /** True when older history was left out to stay within the bounds. */
  historyTruncated: boolean;
  /**
   * This turn's delegation variables (SWITCHBOARD_DISPATCH_URL, _TOKEN, _TASK_ID), the same
   * names a process launcher puts in the environment: a long-lived worker gets them per turn.
   */
  delegation?: Record<string, string>;
}
export interface AbortFrame {
  type: 'abort';
  taskId: string;
  reason: string;
}
export type HubFrame = PromptFrame | AbortFrame;

export type ParsedFrame = { ok: true; frame: WorkerFrame } | { ok: false; reason: string };

export function parseWorkerFrame(line: string): ParsedFrame {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `malformed frame (not JSON: ${(error as Error).message.slice(0, 120)}): ${preview(line)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `malformed frame (not a JSON object): ${preview(line)}` };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !WORKER_FRAME_TYPES.includes(type)) {
    return { ok: false, reason: `unknown frame type ${JSON.stringify(type) ?? 'undefined'}` };
  }
  const parsed = workerFrameSchema.safeParse(value);
  if (parsed.success) return { ok: true, frame: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `invalid "${type}" frame: ${issue.path.join('.') || '(frame)'}: ${issue.message}` };
}

/** The parts a content-bearing frame carries. */
export function frameParts(frame: { text?: string; parts?: Part[] }): Part[] {
  const parts: Part[] = frame.text !== undefined ? [{ kind: 'text', text: frame.text }] : [];
  return [...parts, ...(frame.parts ?? [])];
}

function preview(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}${ELLIPSIS}` : line);
}
