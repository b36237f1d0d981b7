/** The operator audit log (GET /api/audit): pages newest first, "older" loads the next. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { AuditPageSchema, type AuditPage } from '@/lib/dashboard/audit-wire';
import { apiGet, withQuery } from './api-client';
import { auditKeys } from './keys';

const PAGE_SIZE = 50;

export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: auditKeys.all,
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuditPage) => last.nextCursor,
    queryFn: ({ pageParam, signal }) => apiGet(withQuery('/api/audit', { limit: PAGE_SIZE, cursor: pageParam ?? undefined }), AuditPageSchema, signal),
  });
}
