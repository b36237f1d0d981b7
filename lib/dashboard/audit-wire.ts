/** The wire shape of GET /api/audit (decision 232), shared by the route, the dashboard and the CLI. */
import { z } from 'zod';

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  actor: z.string(),
  via: z.string(),
  door: z.string(),
  address: z.string().nullable(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.string()).nullable(),
  outcome: z.enum(['ok', 'refused', 'failed']),
  error: z.string().nullable(),
});
export type AuditEntryWire = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
