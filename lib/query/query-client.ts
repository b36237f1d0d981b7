/**
 * One QueryClient per browser tab, a fresh one per server render (TanStack's
 * get-query-client pattern). Live data arrives over SSE and is written into the cache, so
 * queries do not poll or refetch on focus; a 401 anywhere sends the operator to the login page.
 */
import { isServer, QueryCache, QueryClient } from '@tanstack/react-query';
import { ClientError } from '@/lib/protocol/client-error';

function toLogin(error: unknown): void {
  if (isServer || !(error instanceof ClientError) || error.status !== 401) return;
  if (window.location.pathname === '/login') return;
  const next = encodeURIComponent(window.location.pathname + window.location.search);
  window.location.assign(`/login?next=${next}`);
}

function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: toLogin }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ClientError && error.status < 500) && failures < 2,
      },
      mutations: { onError: toLogin },
    },
  });
}

let browserClient: QueryClient | undefined;

export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  return (browserClient ??= makeQueryClient());
}
