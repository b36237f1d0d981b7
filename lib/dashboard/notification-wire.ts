/**
 * The task page's notification delivery log (GET /api/tasks/:id/notifications). Client-safe.
 * Targets are shown by origin only: a webhook URL's path is often its secret (Slack's are).
 */
import { z } from 'zod';

export const DeliveryAttemptSchema = z.object({ at: z.string(), status: z.number().int().optional(), error: z.string().optional() });

export const DeliverySchema = z.object({
  id: z.string(),
  rule: z.string(),
  /** The rule's events this trigger matched, e.g. ["task-failed", "outbound-ended"]. */
  events: z.array(z.string()),
  target: z.string(),
  format: z.string(),
  state: z.enum(['pending', 'delivered', 'failed', 'refused']),
  attempts: z.number().int(),
  attemptLog: z.array(DeliveryAttemptSchema),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const DeliveryListSchema = z.object({ deliveries: z.array(DeliverySchema) });
export type DeliveryList = z.infer<typeof DeliveryListSchema>;
