/** Dispatching a task to a peer or a URL (POST /api/dispatch → 202 {taskId}). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DispatchResponseSchema, type DispatchInput } from '@/lib/dashboard/peer-wire';
import { apiSend } from './api-client';
import { taskKeys } from './keys';

export function useDispatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DispatchInput) => apiSend('POST', '/api/dispatch', DispatchResponseSchema, input),
    onSuccess: () => client.invalidateQueries({ queryKey: taskKeys.countsAll() }),
  });
}
