/**
 * zod schemas for inbound JSON-RPC params, per protocol version, normalised to one request
 * shape. Errors name the field (`message.parts[0].text: expected string`).
 */
import { z } from 'zod';
import type { Message } from '../protocol/types';
import { messageFromV10 } from '../protocol/v10';
import { partMediaType } from '../protocol/media-types';
import type { PushConfigInput } from '../push/push-configs';

const metadata = z.record(z.string(), z.unknown()).optional();

/**
 * Ids a caller chooses (message, task, context) can reach a launcher's argv ({context_id},
 * {task_id}), where one starting with `-` would read as an option: only plain
 * identifiers are accepted. UUIDs and the usual `prefix-uuid` forms are plain identifiers.
 */
export const CALLER_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,255}$/;
const callerId = z.string().regex(CALLER_ID, "expected a plain identifier: letters, digits, '.', '_', ':' or '-', starting with a letter or digit, at most 256 characters");
/** v1.0 clients (a2a-js) send an empty string for an id they leave out. */
const optionalV10Id = z.union([z.literal(''), callerId]).optional();
const historyLength = z.number().int().min(0).optional();

const V03Part = z.union([
  z.object({ kind: z.literal('text'), text: z.string(), metadata }),
  z.object({
    kind: z.literal('file'),
    file: z.union([
      z.object({ bytes: z.string(), name: z.string().optional(), mimeType: z.string().optional() }),
      z.object({ uri: z.string(), name: z.string().optional(), mimeType: z.string().optional() }),
    ]),
    metadata,
  }),
  z.object({ kind: z.literal('data'), data: z.record(z.string(), z.unknown()), metadata }),
]);

const V03Message = z.object({
  kind: z.literal('message').optional(),
  messageId: callerId,
  role: z.enum(['user', 'agent']),
  parts: z.array(V03Part).min(1, 'expected at least one part'),
  taskId: callerId.optional(),
  contextId: callerId.optional(),
  referenceTaskIds: z.array(z.string()).optional(),
  extensions: z.array(z.string()).optional(),
  metadata,
});

const V10Part = z
  .object({
    text: z.string().optional(),
    raw: z.string().optional(),
    url: z.string().optional(),
    data: z.unknown().optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
    metadata,
  })
  .refine((p) => [p.text, p.raw, p.url, p.data].filter((v) => v !== undefined).length === 1, {
    message: 'expected exactly one of text, raw, url or data',
  });

const V10Message = z.object({
  messageId: callerId,
  role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
  parts: z.array(V10Part).min(1, 'expected at least one part'),
  taskId: optionalV10Id,
  contextId: optionalV10Id,
  referenceTaskIds: z.array(z.string()).optional(),
  extensions: z.array(z.string()).optional(),
  metadata,
});

const V03PushConfig = z.object({
  id: z.string().min(1).optional(),
  url: z.url({ message: 'expected an absolute URL' }),
  token: z.string().optional(),
  authentication: z.object({ schemes: z.array(z.string()), credentials: z.string().optional() }).optional(),
});

const V10PushConfig = z.object({
  id: z.string().min(1).optional(),
  taskId: z.string().min(1).optional(),
  url: z.url({ message: 'expected an absolute URL' }),
  token: z.string().optional(),
  authentication: z.object({ scheme: z.string(), credentials: z.string().optional() }).optional(),
  tenant: z.string().optional(),
});

export interface SendParams {
  message: Message;
  blocking: boolean;
  historyLength?: number;
  push?: PushConfigInput;
  metadata?: Record<string, unknown>;
  /** Each part's media type, declared or implied by its kind (undefined: a file naming none). */
  partMediaTypes: (string | undefined)[];
}

const v03Push = (c: z.infer<typeof V03PushConfig>): PushConfigInput => ({
  id: c.id,
  url: c.url,
  token: c.token,
  authentication: c.authentication ? { scheme: c.authentication.schemes[0] ?? 'Bearer', credentials: c.authentication.credentials } : undefined,
});

export const SendSchemas = {
  '0.3': z
    .object({
      message: V03Message,
      configuration: z
        .object({ blocking: z.boolean().optional(), historyLength, pushNotificationConfig: V03PushConfig.optional(), acceptedOutputModes: z.array(z.string()).optional() })
        .optional(),
      metadata,
    })
    .transform(
      (p): SendParams => ({
        message: { ...p.message, kind: 'message' } as Message,
        partMediaTypes: (p.message.parts as Message['parts']).map((part) => partMediaType(part)),
        blocking: p.configuration?.blocking !== false,
        historyLength: p.configuration?.historyLength,
        push: p.configuration?.pushNotificationConfig ? v03Push(p.configuration.pushNotificationConfig) : undefined,
        metadata: p.metadata,
      }),
    ),
  '1.0': z
    .object({
      message: V10Message,
      configuration: z
        .object({ returnImmediately: z.boolean().optional(), historyLength, taskPushNotificationConfig: V10PushConfig.optional(), acceptedOutputModes: z.array(z.string()).optional() })
        .optional(),
      metadata,
      tenant: z.string().optional(),
    })
    .transform((p): SendParams => {
      const message = messageFromV10(p.message as Record<string, unknown>);
      return {
        message,
        blocking: p.configuration?.returnImmediately !== true,
        historyLength: p.configuration?.historyLength,
        push: p.configuration?.taskPushNotificationConfig,
        metadata: p.metadata,
        partMediaTypes: message.parts.map((part, i) => partMediaType(part, p.message.parts[i].mediaType)),
      };
    }),
};

export const TaskQuerySchema = z.object({ id: z.string().min(1), historyLength, metadata, tenant: z.string().optional() });
export const TaskIdSchema = z.object({ id: z.string().min(1), metadata, tenant: z.string().optional() });

const V10StateName = z.enum([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
]);

export const ListTasksSchema = z.object({
  contextId: z.string().optional(),
  status: V10StateName.optional(),
  pageSize: z.number().int().min(1).max(100).default(50),
  pageToken: z.string().optional(),
  historyLength,
  statusTimestampAfter: z.iso.datetime({ offset: true }).optional(),
  includeArtifacts: z.boolean().optional(),
  tenant: z.string().optional(),
});

export const PushSetSchemas = {
  '0.3': z
    .object({ taskId: z.string().min(1), pushNotificationConfig: V03PushConfig })
    .transform((p) => ({ taskId: p.taskId, config: v03Push(p.pushNotificationConfig) })),
  '1.0': V10PushConfig.extend({ taskId: z.string().min(1) }).transform((p) => ({
    taskId: p.taskId,
    config: { id: p.id, url: p.url, token: p.token, authentication: p.authentication } as PushConfigInput,
  })),
};

export const PushGetSchemas = {
  '0.3': z
    .object({ id: z.string().min(1), pushNotificationConfigId: z.string().nullish(), metadata })
    .transform((p) => ({ taskId: p.id, id: p.pushNotificationConfigId ?? undefined })),
  '1.0': z.object({ taskId: z.string().min(1), id: z.string().min(1), tenant: z.string().optional() }).transform((p) => ({ taskId: p.taskId, id: p.id })),
};

export const PushListSchemas = {
  '0.3': z.object({ id: z.string().min(1), metadata }).transform((p) => ({ taskId: p.id })),
  '1.0': z
    .object({ taskId: z.string().min(1), pageSize: z.number().int().optional(), pageToken: z.string().optional(), tenant: z.string().optional() })
    .transform((p) => ({ taskId: p.taskId })),
};

export const PushDeleteSchemas = {
  '0.3': z
    .object({ id: z.string().min(1), pushNotificationConfigId: z.string().min(1), metadata })
    .transform((p) => ({ taskId: p.id, id: p.pushNotificationConfigId })),
  '1.0': z.object({ taskId: z.string().min(1), id: z.string().min(1), tenant: z.string().optional() }).transform((p) => ({ taskId: p.taskId, id: p.id })),
};

/** The first zod issue as "path: message", for -32602 messages that name the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.length ? `params.${issue.path.join('.')}` : 'params';
  return `${path}: ${issue.message}`;
}
