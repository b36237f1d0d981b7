/** Who the operator is (role, open mode), logging in and out. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { SessionInfoSchema, type Role } from '@/lib/dashboard/wire';
import { apiGet, apiSend } from './api-client';
import { sessionKeys } from './keys';

export const sessionOptions = queryOptions({
  queryKey: sessionKeys.current,
  queryFn: ({ signal }) => apiGet('/api/session', SessionInfoSchema, signal),
  staleTime: 60_000,
});

export function useSession() {
  const query = useQuery(sessionOptions);
  const role: Role | null = query.data?.role ?? null;
  return { ...query, role, canOperate: role === 'operator' };
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiSend('POST', '/api/session', SessionInfoSchema, { token }),
    onSuccess: (info) => {
      client.clear();
      client.setQueryData(sessionKeys.current, info);
    },
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend('DELETE', '/api/session', z.undefined()),
    onSuccess: () => client.clear(),
  });
}
