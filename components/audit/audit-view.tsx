'use client';
/**
 * The operator audit log (decision 232): who did what, from where, with what outcome, newest
 * first. Every value is rendered as text (React escapes it); a peer name or key name is the
 * operator's own input but is never given markup or a link.
 */
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { AuditEntryWire } from '@/lib/dashboard/audit-wire';
import { useAuditLog } from '@/lib/query/use-audit';

const OUTCOME_TONE: Record<AuditEntryWire['outcome'], BadgeTone> = { ok: 'green', refused: 'amber', failed: 'red' };

const facts = (detail: AuditEntryWire['detail']) =>
  detail
    ? Object.entries(detail)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')
    : '';

function AuditRow({ entry }: { entry: AuditEntryWire }) {
  return (
    <tr className="border-t border-zinc-200 align-top dark:border-zinc-800" data-testid="audit-row">
      <td className="py-1.5 pr-3 whitespace-nowrap text-zinc-500">{new Date(entry.at).toLocaleString()}</td>
      <td className="py-1.5 pr-3 font-medium">{entry.action}</td>
      <td className="py-1.5 pr-3 break-all">{entry.target ?? ''}</td>
      <td className="py-1.5 pr-3">
        {entry.actor} <span className="text-zinc-500">({entry.via}, {entry.door})</span>
      </td>
      <td className="py-1.5 pr-3 font-mono text-xs">{entry.address ?? 'host'}</td>
      <td className="py-1.5 pr-3">
        <Badge tone={OUTCOME_TONE[entry.outcome]}>{entry.error ? `${entry.outcome}: ${entry.error}` : entry.outcome}</Badge>
      </td>
      <td className="py-1.5 font-mono text-xs break-all text-zinc-500">{facts(entry.detail)}</td>
    </tr>
  );
}

export function AuditView() {
  const log = useAuditLog();
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Audit log</h1>
      <p className="text-sm text-zinc-500">Operator actions: dispatches, replies, cancels, peer changes, API keys. Newest first.</p>
      {log.isPending ? (
        <div className="flex items-center gap-2 text-sm text-zinc-500">
          <Spinner /> Loading the audit log…
        </div>
      ) : log.isError ? (
        <Alert tone="error" title="Could not load the audit log">
          {log.error.message}
        </Alert>
      ) : entries.length === 0 ? (
        <p className="text-sm text-zinc-500">No operator actions recorded yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-zinc-500 uppercase">
              <tr>
                <th className="pr-3 pb-1 font-medium">When</th>
                <th className="pr-3 pb-1 font-medium">Action</th>
                <th className="pr-3 pb-1 font-medium">Target</th>
                <th className="pr-3 pb-1 font-medium">Who</th>
                <th className="pr-3 pb-1 font-medium">From</th>
                <th className="pr-3 pb-1 font-medium">Outcome</th>
                <th className="pb-1 font-medium">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasNextPage ? (
        <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? 'Loading…' : 'Older entries'}
        </Button>
      ) : null}
    </div>
  );
}
