'use client';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import type { Peer } from '@/lib/dashboard/peer-wire';
import { ClientError } from '@/lib/protocol/client-error';
import { useSavePeer } from '@/lib/query/use-peers';
import { draftFrom, toPeerInput, type PeerDraft } from './peer-draft';
import { timeoutHint } from '@/lib/protocol/timeout-floor';

const FIELDS = ['name', 'url', 'auth', 'headers', 'timeoutSeconds', 'notes'];

function splitError(error: unknown): { field: string | null; message: string } | null {
  if (!error) return null;
  if (error instanceof ClientError && error.field) {
    const field = error.field.split('.')[0];
    return { field: FIELDS.includes(field) ? field : null, message: error.message };
  }
  return { field: null, message: error instanceof Error ? error.message : 'could not save the peer' };
}

/** The auth type and, when it has one, its header and write-only secret. */
function AuthFields({ draft, onChange, error, secretSet }: { draft: PeerDraft; onChange: (patch: Partial<PeerDraft>) => void; error: string | null; secretSet: boolean }) {
  return (
    <>
      <Field id="peer-auth" label="Auth" error={error}>
        <Select id="peer-auth" value={draft.authType} onChange={(e) => onChange({ authType: e.target.value as PeerDraft['authType'], secret: '' })}>
          <option value="none">None</option>
          <option value="bearer">Bearer token</option>
          <option value="apiKey">API key header</option>
        </Select>
      </Field>
      {draft.authType === 'apiKey' ? (
        <Field id="peer-auth-header" label="Header name">
          <Input id="peer-auth-header" value={draft.authHeader} onChange={(e) => onChange({ authHeader: e.target.value })} />
        </Field>
      ) : null}
      {draft.authType !== 'none' ? (
        <Field id="peer-secret" label={draft.authType === 'bearer' ? 'Token' : 'Key'} hint={secretSet ? 'A secret is stored. Leave empty to keep it; it is never shown.' : 'Write-only: it is never sent back.'}>
          <Input id="peer-secret" type="password" autoComplete="off" value={draft.secret} placeholder={secretSet ? '•••••••• (stored)' : ''} onChange={(e) => onChange({ secret: e.target.value })} />
        </Field>
      ) : null}
    </>
  );
}

/** Create or edit a peer. The stored secret is never shown; typing a new one replaces it. */
export function PeerForm({ peer, onDone }: { peer: Peer | null; onDone: () => void }) {
  const [draft, setDraft] = useState<PeerDraft>(() => draftFrom(peer));
  const [error, setError] = useState<unknown>(null);
  const save = useSavePeer(peer?.name ?? null);
  const shown = splitError(error);
  const at = (field: string) => (shown?.field === field ? shown.message : null);
  const change = (patch: Partial<PeerDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = toPeerInput(draft, peer);
    if ('field' in built) return setError(new ClientError(400, 'invalid_request', built.message, built.field));
    save.mutate(built.input, { onSuccess: onDone, onError: setError });
  };

  const secretSet = peer?.auth.configured && draft.authType === peer.auth.type;
  return (
    <Card>
      <CardHeader title={peer ? `Edit ${peer.name}` : 'Add a peer'} />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-4" aria-label={peer ? `Edit peer ${peer.name}` : 'Add a peer'}>
          {shown && !shown.field ? <Alert tone="error" title="Could not save">{shown.message}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            {peer ? null : (
              <Field id="peer-name" label="Name" error={at('name')} hint="Letters, digits, dot, dash, underscore.">
                <Input id="peer-name" value={draft.name} invalid={Boolean(at('name'))} onChange={(e) => change({ name: e.target.value })} />
              </Field>
            )}
            <Field id="peer-url" label="URL" error={at('url')} hint="The agent's base or agent-card URL.">
              <Input id="peer-url" type="url" value={draft.url} invalid={Boolean(at('url'))} onChange={(e) => change({ url: e.target.value })} />
            </Field>
            <AuthFields draft={draft} onChange={change} error={at('auth')} secretSet={Boolean(secretSet)} />
            <Field id="peer-timeout" label="Timeout (s)" error={at('timeoutSeconds')} hint={timeoutHint(draft.timeoutSeconds, 'Empty: the global client timeout.')}>
              <Input id="peer-timeout" inputMode="decimal" value={draft.timeoutSeconds} invalid={Boolean(at('timeoutSeconds'))} onChange={(e) => change({ timeoutSeconds: e.target.value })} />
            </Field>
          </div>
          <Field
            id="peer-headers"
            label="Extra headers"
            error={at('headers')}
            hint={peer?.headerNames.length ? `Stored: ${peer.headerNames.join(', ')} (values hidden). Entering headers replaces them all.` : 'One "Name: value" per line.'}
          >
            <Textarea id="peer-headers" rows={2} value={draft.headers} invalid={Boolean(at('headers'))} onChange={(e) => change({ headers: e.target.value })} />
          </Field>
          <Field id="peer-notes" label="Notes" error={at('notes')}>
            <Input id="peer-notes" value={draft.notes} onChange={(e) => change({ notes: e.target.value })} />
          </Field>
          <div className="flex justify-end gap-2">
            <Button onClick={onDone}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : peer ? 'Save' : 'Add peer'}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
