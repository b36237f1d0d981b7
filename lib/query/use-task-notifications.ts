/** A task's notification delivery log; polled while a delivery is still pending (retrying). */
import { useQuery } from '@tanstack/react-query';
import { DeliveryListSchema } from '@/lib/dashboard/notification-wire';
import { apiGet } from './api-client';
import { taskKeys } from './keys';

const PENDING_POLL_MS = 2_000;

export function useTaskNotifications(id: string, state: string) {
  return useQuery({
    queryKey: taskKeys.notifications(id, state),
    queryFn: ({ signal }) => apiGet(`/api/tasks/${encodeURIComponent(id)}/notifications`, DeliveryListSchema, signal),
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.state === 'pending') ? PENDING_POLL_MS : false),
  });
}
