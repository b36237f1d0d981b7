/** The hub's status (served agents, config errors): GET /api/status. */
import { useQuery } from '@tanstack/react-query';
import { StatusResponseSchema } from '@/lib/dashboard/wire';
import { apiGet } from './api-client';
import { statusKeys } from './keys';

export function useStatus() {
  return useQuery({
    queryKey: statusKeys.current,
    queryFn: ({ signal }) => apiGet('/api/status', StatusResponseSchema, signal),
    staleTime: 60_000,
  });
}
