'use client';
import { Badge } from '@/components/ui/badge';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import type { Artifact } from '@/lib/protocol/types';
import { PartsView } from './parts-view';

function chars(artifact: Artifact): number {
  return artifact.parts.reduce((n, p) => n + (p.kind === 'text' ? p.text.length : 0), 0);
}

function StreamBadge({ state, running, any }: { state: string; running: boolean; any: boolean }) {
  if (running) return <Badge tone="blue">streaming…</Badge>;
  if (!any) return null;
  // A failed or canceled task's output is whatever arrived before the end: say so.
  return state === 'completed' ? <Badge tone="green">complete</Badge> : <Badge tone="amber">partial · task {state}</Badge>;
}

/** The accumulated artifacts: they grow while the task streams and are whole once it ends. */
export function ArtifactList({ artifacts, running, state }: { artifacts: Artifact[]; running: boolean; state: string }) {
  return (
    <Card aria-labelledby="artifacts-title">
      <CardHeader
        id="artifacts-title"
        title={`Artifacts · ${artifacts.length}`}
        actions={<StreamBadge state={state} running={running} any={artifacts.length > 0} />}
      />
      <CardBody className="space-y-4">
        {artifacts.length === 0 ? <p className="text-sm text-zinc-500">{running ? 'No output yet.' : 'No artifacts.'}</p> : null}
        {artifacts.map((a) => (
          <div key={a.artifactId} className="space-y-1.5" data-testid="artifact" data-artifact-id={a.artifactId}>
            <div className="flex flex-wrap items-baseline gap-2 text-sm">
              <span className="font-medium">{a.name ?? a.artifactId}</span>
              <span className="text-xs text-zinc-500 tabular-nums">
                {a.parts.length} {a.parts.length === 1 ? 'part' : 'parts'} · {chars(a).toLocaleString()} chars
              </span>
              {a.description ? <span className="text-xs text-zinc-500">{a.description}</span> : null}
            </div>
            <PartsView parts={a.parts} testId="artifact-content" />
          </div>
        ))}
      </CardBody>
    </Card>
  );
}
