/**
 * Operator notification rules, the `notifications:` list of the config file:
 * which task events to report, and to which webhook in which payload shape. Validated here with
 * the rest of the file; an invalid rule stops start-up naming its key (unlike an invalid agent,
 * which is left out), because a silently missing alert is worse than a refusal to start.
 */
import { HEADER_NAME } from '../protocol/peer-auth';
import { z } from 'zod';

export const NOTIFICATION_EVENTS = ['detached-task-ended', 'task-failed', 'outbound-ended', 'input-required'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_FORMATS = ['json', 'slack'] as const;
export type NotificationFormat = (typeof NOTIFICATION_FORMATS)[number];

export const NotificationRuleSchema = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'expected 1-63 letters, digits, dot, dash or underscore'),
    /** Which events: any of NOTIFICATION_EVENTS. */
    on: z.array(z.enum(NOTIFICATION_EVENTS)).min(1, 'expected at least one event'),
    /** For `outbound-ended`: only tasks to these peers (all peers when left out). */
    peers: z.array(z.string().min(1)).min(1).optional(),
    url: z.url({ protocol: /^https?$/, message: 'expected an absolute http(s) URL' }),
    format: z.enum(NOTIFICATION_FORMATS).default('json'),
    headers: z.record(z.string().regex(HEADER_NAME, 'expected an HTTP header name'), z.string()).default({}),
    /**
     * The operator's explicit allowlist for this target: lets a private or loopback `url` pass
     * the SSRF guard (as SWITCHBOARD_PUSH_ALLOWLIST does for push), for this rule only.
     */
    allowPrivate: z.boolean().default(false),
    /** Retries after the first attempt (network errors, 408, 429, 5xx). */
    retries: z.number().int().min(0).max(20).default(5),
    /** Delay before the first retry, doubling each time, at most 1 h apart. */
    backoffSeconds: z.number().positive().max(3600).default(2),
  })
  .superRefine((rule, ctx) => {
    if (rule.peers && !rule.on.includes('outbound-ended')) {
      ctx.addIssue({ code: 'custom', path: ['peers'], message: 'only applies to the outbound-ended event; add it to "on"' });
    }
  });
export type NotificationRule = z.infer<typeof NotificationRuleSchema>;
