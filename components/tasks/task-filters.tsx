'use client';
import { useEffect, useRef, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { TIME_RANGES, type TaskFilter } from '@/lib/dashboard/wire';

const SEARCH_DEBOUNCE_MS = 300;

type Update = (changes: Partial<Record<'direction' | 'agent' | 'range' | 'q', string | undefined>>) => void;

/** A text box that commits to the URL after the operator pauses typing. */
function useDebouncedCommit(value: string | undefined, commit: (v: string | undefined) => void) {
  const [draft, setDraft] = useState(value ?? '');
  const [synced, setSynced] = useState(value);
  if (synced !== value) {
    // The URL changed under us (back button, another control): show its value.
    setSynced(value);
    setDraft(value ?? '');
  }
  // The latest commit function, without restarting the debounce whenever the parent re-renders.
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    if ((value ?? '') === draft.trim()) return;
    const t = setTimeout(() => commitRef.current(draft.trim() || undefined), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [draft, value]);
  return [draft, setDraft] as const;
}

export function TaskFilters({ filter, update, agents }: { filter: TaskFilter; update: Update; agents: string[] }) {
  const [q, setQ] = useDebouncedCommit(filter.q, (v) => update({ q: v }));
  const [agent, setAgent] = useDebouncedCommit(filter.agent, (v) => update({ agent: v }));
  return (
    <div className="grid grid-cols-2 gap-2 md:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
      <div className="col-span-2 md:col-span-1">
        <label htmlFor="task-search" className="sr-only">
          Search requests, status messages and results
        </label>
        <Input id="task-search" type="search" placeholder="Search requests, messages, results…" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      <div>
        <label htmlFor="filter-direction" className="sr-only">
          Direction
        </label>
        <Select id="filter-direction" value={filter.direction ?? ''} onChange={(e) => update({ direction: e.target.value || undefined })}>
          <option value="">Both directions</option>
          <option value="inbound">Inbound</option>
          <option value="outbound">Outbound</option>
        </Select>
      </div>
      <div>
        <label htmlFor="filter-agent" className="sr-only">
          Agent or peer
        </label>
        <Input id="filter-agent" list="known-agents" placeholder="Agent or peer" value={agent} onChange={(e) => setAgent(e.target.value)} />
        <datalist id="known-agents">
          {agents.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor="filter-range" className="sr-only">
          Time range
        </label>
        <Select id="filter-range" value={filter.range ?? ''} onChange={(e) => update({ range: e.target.value || undefined })}>
          <option value="">Any time</option>
          {TIME_RANGES.map((r) => (
            <option key={r} value={r}>
              Last {r}
            </option>
          ))}
        </Select>
      </div>
    </div>
  );
}
