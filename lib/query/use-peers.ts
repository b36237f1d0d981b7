/** Peers: list, create, edit, delete, test. Secrets go in, never come back. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { PeerListSchema, PeerOneSchema, PeerTestSchema, type PeerInput } from '@/lib/dashboard/peer-wire';
import { apiGet, apiSend } from './api-client';
import { peerKeys } from './keys';

export const peerListOptions = queryOptions({
  queryKey: peerKeys.list(),
  queryFn: ({ signal }) => apiGet('/api/peers', PeerListSchema, signal).then((r) => r.peers),
});

export function usePeers() {
  return useQuery(peerListOptions);
}

const peerPath = (name: string) => `/api/peers/${encodeURIComponent(name)}`;

export function useSavePeer(existing: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PeerInput) =>
      existing
        ? apiSend('PATCH', peerPath(existing), PeerOneSchema, input).then((r) => r.peer)
        : apiSend('POST', '/api/peers', PeerOneSchema, input).then((r) => r.peer),
    onSuccess: () => client.invalidateQueries({ queryKey: peerKeys.all }),
  });
}

export function useDeletePeer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiSend('DELETE', peerPath(name), z.unknown()),
    onSuccess: () => client.invalidateQueries({ queryKey: peerKeys.all }),
  });
}

export function useTestPeer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiSend('POST', `${peerPath(name)}/test`, PeerTestSchema),
    // A test refreshes the cached card shown in the list.
    onSettled: () => client.invalidateQueries({ queryKey: peerKeys.list() }),
  });
}
