'use client';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardBody } from '@/components/ui/card';
import type { Peer } from '@/lib/dashboard/peer-wire';
import { useDeletePeer, useTestPeer } from '@/lib/query/use-peers';
import { PeerTestResult } from './peer-test-result';

function authLabel(peer: Peer): string {
  if (peer.auth.type === 'none') return 'no auth';
  const kind = peer.auth.type === 'bearer' ? 'bearer token' : peer.auth.type === 'oauth2' ? 'OAuth2 client credentials' : `API key (${peer.auth.header ?? 'header'})`;
  return `${kind} · ${peer.auth.configured ? 'secret set' : 'secret missing'}`;
}

/** Test, edit and delete (with a confirming second click); only API peers can change. */
function PeerActions({ peer, test, remove, onEdit }: { peer: Peer; test: ReturnType<typeof useTestPeer>; remove: ReturnType<typeof useDeletePeer>; onEdit: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const editable = peer.source === 'api';
  return (
    <div className="flex flex-wrap gap-2">
      <Button size="sm" onClick={() => test.mutate(peer.name)} disabled={test.isPending} data-testid="peer-test">
        {test.isPending ? 'Testing…' : 'Test'}
      </Button>
      {editable ? (
        <>
          <Button size="sm" onClick={onEdit}>
            Edit
          </Button>
          <Button
            size="sm"
            variant={confirming ? 'danger' : 'secondary'}
            disabled={remove.isPending}
            onClick={() => (confirming ? remove.mutate(peer.name) : setConfirming(true))}
            onBlur={() => setConfirming(false)}
          >
            {confirming ? 'Confirm delete' : 'Delete'}
          </Button>
        </>
      ) : null}
    </div>
  );
}

function PeerFacts({ peer }: { peer: Peer }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-3">
      <div>
        <dt className="text-zinc-500">Auth</dt>
        <dd>{authLabel(peer)}</dd>
      </div>
      <div>
        <dt className="text-zinc-500">Timeout</dt>
        <dd>{peer.timeoutSeconds != null ? `${peer.timeoutSeconds} s` : 'default'}</dd>
      </div>
      <div>
        <dt className="text-zinc-500">Extra headers</dt>
        <dd>{peer.headerNames.length ? peer.headerNames.join(', ') : 'none'}</dd>
      </div>
    </dl>
  );
}

export function PeerCard({ peer, canOperate, onEdit }: { peer: Peer; canOperate: boolean; onEdit: () => void }) {
  const test = useTestPeer();
  const remove = useDeletePeer();
  return (
    <Card data-testid="peer" data-peer={peer.name}>
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0 space-y-0.5">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="font-semibold">{peer.name}</h2>
              {peer.source !== 'api' ? <Badge title={peer.source === 'config' ? 'declared in the config file' : 'built in'}>{peer.source}</Badge> : null}
              {peer.card?.protocolVersion ? <Badge tone="indigo">A2A {peer.card.protocolVersion}</Badge> : null}
            </div>
            <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">{peer.url}</p>
          </div>
          {canOperate ? <PeerActions peer={peer} test={test} remove={remove} onEdit={onEdit} /> : null}
        </div>
        <PeerFacts peer={peer} />
        {peer.card?.skills.length ? (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {peer.card.name ? `${peer.card.name} · ` : ''}skills: {peer.card.skills.map((s) => s.name).join(', ')}
          </p>
        ) : null}
        {peer.notes ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{peer.notes}</p> : null}
        {test.data ? <PeerTestResult result={test.data} /> : null}
        {test.isError ? <Alert tone="error">{test.error.message}</Alert> : null}
        {remove.isError ? <Alert tone="error">{remove.error.message}</Alert> : null}
      </CardBody>
    </Card>
  );
}
