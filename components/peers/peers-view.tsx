'use client';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { usePeers } from '@/lib/query/use-peers';
import { useSession } from '@/lib/query/use-session';
import { PeerCard } from './peer-card';
import { PeerForm } from './peer-form';

type Editing = { mode: 'closed' } | { mode: 'new' } | { mode: 'edit'; name: string };

export function PeersView() {
  const peers = usePeers();
  const { canOperate } = useSession();
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' });
  const close = () => setEditing({ mode: 'closed' });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">Peers</h1>
        {canOperate && editing.mode === 'closed' ? (
          <Button variant="primary" onClick={() => setEditing({ mode: 'new' })}>
            Add peer
          </Button>
        ) : null}
      </div>
      {editing.mode === 'new' ? <PeerForm peer={null} onDone={close} /> : null}
      {peers.isPending ? (
        <div className="flex items-center gap-2 text-sm text-zinc-500">
          <Spinner /> Loading peers…
        </div>
      ) : peers.isError ? (
        <Alert tone="error" title="Could not load peers">
          {peers.error.message}
        </Alert>
      ) : peers.data.length === 0 ? (
        <p className="text-sm text-zinc-500">No peers yet.</p>
      ) : (
        <div className="grid gap-3">
          {peers.data.map((peer) =>
            editing.mode === 'edit' && editing.name === peer.name ? (
              <PeerForm key={peer.name} peer={peer} onDone={close} />
            ) : (
              <PeerCard key={peer.name} peer={peer} canOperate={canOperate} onEdit={() => setEditing({ mode: 'edit', name: peer.name })} />
            ),
          )}
        </div>
      )}
    </div>
  );
}
