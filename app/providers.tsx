'use client';
/**
 * Client-side providers. The server already knows who the operator is (root layout), so the
 * session is seeded into the cache once: role-dependent buttons render right the first time.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { SessionInfo } from '@/lib/dashboard/wire';
import { getQueryClient } from '@/lib/query/query-client';
import { sessionKeys } from '@/lib/query/keys';

export function Providers({ session, children }: { session: SessionInfo; children: ReactNode }) {
  const [client] = useState(() => {
    const queryClient = getQueryClient();
    queryClient.setQueryData(sessionKeys.current, session);
    return queryClient;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
