'use client';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import type { Peer } from '@/lib/dashboard/peer-wire';
import type { DispatchDraft } from './use-dispatch-draft';
import { draftField } from './draft-field';

type Change = (patch: Partial<DispatchDraft>) => void;

/** A configured peer, or any URL (which inherits a matching peer's auth and timeout). */
export function TargetPicker({ draft, onChange, peers, errors }: { draft: DispatchDraft; onChange: Change; peers: Peer[] | undefined; errors: Record<string, string> }) {
  return (
    <div className="space-y-3">
      <div role="radiogroup" aria-label="Target" className="inline-flex rounded-md border border-zinc-300 p-0.5 dark:border-zinc-700">
        {(['peer', 'url'] as const).map((t) => (
          <label key={t} className="cursor-pointer rounded px-3 py-1 text-sm has-[:checked]:bg-zinc-900 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 dark:has-[:checked]:bg-zinc-100 dark:has-[:checked]:text-zinc-900">
            <input type="radio" name="target" value={t} checked={draft.target === t} onChange={() => onChange({ target: t })} className="sr-only" />
            {t === 'peer' ? 'Configured peer' : 'URL'}
          </label>
        ))}
      </div>
      {draft.target === 'peer' ? (
        <Field id="peer" label="Peer" error={errors.peer}>
          <Select {...draftField('peer', draft, errors, onChange, 'no hint')}>
            <option value="">{peers ? 'Choose a peer…' : 'Loading peers…'}</option>
            {peers?.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} — {p.url}
              </option>
            ))}
          </Select>
        </Field>
      ) : (
        <Field id="url" label="Agent URL" error={errors.url} hint="The agent's A2A endpoint or its agent-card URL.">
          <Input type="url" inputMode="url" placeholder="https://agent.example/a2a" {...draftField('url', draft, errors, onChange)} />
        </Field>
      )}
    </div>
  );
}
