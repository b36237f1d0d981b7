'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardBody } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { ClientError } from '@/lib/protocol/client-error';
import { useDispatch } from '@/lib/query/use-dispatch';
import { usePeers } from '@/lib/query/use-peers';
import { useSession } from '@/lib/query/use-session';
import { watchTask } from '@/lib/query/watched-tasks';
import { ModePicker } from './mode-picker';
import { timeoutHint } from '@/lib/protocol/timeout-floor';
import { TargetPicker } from './target-picker';
import { draftField } from './draft-field';
import { toDispatchInput, useDispatchDraft, type DispatchDraft } from './use-dispatch-draft';

const FORM_FIELDS = ['peer', 'url', 'text', 'data', 'mode', 'timeoutSeconds', 'contextId', 'taskId'];

/** The API's 400 names a field (dotted for nested ones); show it there, or above the form. */
function fieldErrors(error: unknown): { byField: Record<string, string>; general: string | null } {
  if (!error) return { byField: {}, general: null };
  if (error instanceof ClientError && error.field) {
    const field = error.field.split('.')[0];
    if (FORM_FIELDS.includes(field)) return { byField: { [field]: error.message }, general: null };
  }
  return { byField: {}, general: error instanceof Error ? error.message : 'dispatch failed' };
}

/** The optional knobs: timeout override, and the context or task to continue. */
function OptionFields({ draft, onChange, errors }: { draft: DispatchDraft; onChange: (patch: Partial<DispatchDraft>) => void; errors: Record<string, string> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Field id="timeoutSeconds" label="Timeout override (s)" error={errors.timeoutSeconds} hint={timeoutHint(draft.timeoutSeconds, "Empty: the peer's or the global default.")}>
        <Input inputMode="decimal" {...draftField('timeoutSeconds', draft, errors, onChange)} />
      </Field>
      <Field id="contextId" label="Context id (optional)" error={errors.contextId}>
        <Input id="contextId" value={draft.contextId} invalid={Boolean(errors.contextId)} onChange={(e) => onChange({ contextId: e.target.value })} />
      </Field>
      <Field id="taskId" label="Continue task id (optional)" error={errors.taskId}>
        <Input id="taskId" value={draft.taskId} invalid={Boolean(errors.taskId)} onChange={(e) => onChange({ taskId: e.target.value })} />
      </Field>
    </div>
  );
}

export function DispatchForm() {
  const { canOperate } = useSession();
  const peers = usePeers();
  const dispatch = useDispatch();
  const router = useRouter();
  const [draft, setDraft] = useDispatchDraft();
  const [shownError, setShownError] = useState<unknown>(null);
  const { byField, general } = fieldErrors(shownError);

  if (!canOperate) {
    return <Alert tone="warning" title="Read-only" testId="dispatch-forbidden">Your role is viewer: dispatching needs the operator role.</Alert>;
  }

  const change = (patch: Partial<DispatchDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setShownError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = toDispatchInput(draft);
    if ('field' in built) return setShownError(new ClientError(400, 'invalid_request', built.message, built.field));
    setShownError(null);
    dispatch.mutate(built.input, {
      onSuccess: ({ taskId }) => {
        watchTask(taskId); // tasks the operator dispatched are announced when they end
        router.push(`/tasks/${taskId}`);
      },
      onError: setShownError,
    });
  };

  return (
    <Card>
      <CardBody className="py-5">
        <form onSubmit={submit} noValidate className="space-y-5" aria-label="Dispatch a task">
          {general ? <Alert tone="error" title="Dispatch failed" testId="dispatch-error">{general}</Alert> : null}
          <TargetPicker draft={draft} onChange={change} peers={peers.data} errors={byField} />
          <Field id="text" label="Message" error={byField.text}>
            <Textarea rows={6} placeholder="What should the agent do?" {...draftField('text', draft, byField, change, 'no hint')} />
          </Field>
          <Field id="data" label="Data (JSON object, optional)" error={byField.data} hint="Sent as a data part, after the text: an answer that is not text, such as a tool approval.">
            <Textarea rows={3} placeholder='{"callId": "…", "outcome": "proceed_once"}' {...draftField('data', draft, byField, change)} />
          </Field>
          <ModePicker value={draft.mode} onChange={(mode) => change({ mode })} error={byField.mode} />
          <OptionFields draft={draft} onChange={change} errors={byField} />
          <div className="flex justify-end">
            <Button type="submit" variant="primary" disabled={dispatch.isPending} data-testid="dispatch-submit">
              {dispatch.isPending ? 'Dispatching…' : 'Dispatch'}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
