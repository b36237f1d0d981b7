import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import type { PeerTest } from '@/lib/dashboard/peer-wire';

/** What a test found: the card, its versions and skills, or why the peer did not answer. */
export function PeerTestResult({ result }: { result: PeerTest }) {
  if (!result.reachable) {
    return (
      <Alert tone="error" title={`Unreachable after ${result.latencyMs} ms`} testId="peer-test-result">
        <span className="break-words">{result.error ?? 'no answer'}</span>
      </Alert>
    );
  }
  return (
    <div className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50/50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/30" data-testid="peer-test-result">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="green">reachable · {result.latencyMs} ms</Badge>
        {result.name ? <span className="font-medium">{result.name}</span> : null}
        {result.protocolVersion ? <Badge tone="indigo">A2A {result.protocolVersion}</Badge> : null}
        {result.versions?.length ? <span className="text-xs text-zinc-500">offers {result.versions.join(', ')}</span> : null}
        {result.streaming ? <Badge tone="blue">streaming</Badge> : null}
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-2">
        {result.endpointUrl ? (
          <div className="min-w-0">
            <dt className="text-zinc-500">Endpoint</dt>
            <dd className="break-all">{result.endpointUrl}</dd>
          </div>
        ) : null}
        <div>
          <dt className="text-zinc-500">Client timeout</dt>
          <dd>
            {result.timeoutSeconds} s ({result.timeoutSource})
            {result.responseWindowSeconds !== undefined ? ` · peer window ${result.responseWindowSeconds} s` : ''}
          </dd>
        </div>
      </dl>
      {result.skills?.length ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Skills">
          {result.skills.map((s) => (
            <li key={s.id}>
              <Badge title={s.description}>{s.name}</Badge>
            </li>
          ))}
        </ul>
      ) : null}
      {result.warnings.map((w) => (
        <Alert key={w} tone="warning">
          {w}
        </Alert>
      ))}
    </div>
  );
}
