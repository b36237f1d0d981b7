import type { Direction, TaskOwner } from '@/lib/dashboard/wire';

/** Inbound: a peer called one of our agents. Outbound: we called a peer. */
export function DirectionLabel({ direction }: { direction: Direction }) {
  return (
    <span className="inline-flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400" title={direction === 'inbound' ? 'a peer called our agent' : 'we called a peer'}>
      <span aria-hidden>{direction === 'inbound' ? '↘' : '↗'}</span>
      {direction}
    </span>
  );
}

/** The agent (inbound) or the peer (outbound); an unnamed peer by its URL without the scheme. */
export function agentOrPeer(task: { direction: Direction; agentSlug: string | null; peerName: string | null; peerUrl: string | null }): string {
  if (task.direction === 'inbound') return task.agentSlug ?? '—';
  return task.peerName ?? task.peerUrl?.replace(/^https?:\/\//, '') ?? '—';
}

/** Who owns the task: the API key's name (inbound) or the operator (outbound dispatches). */
export function ownerLabel(task: { direction: Direction; owner: TaskOwner | null }): string {
  if (task.direction === 'outbound') return 'operator';
  return task.owner?.name ?? '—';
}

/** The owner's id as a tooltip, when it says more than the name (an API key's id). */
export function ownerTitle(task: { owner: TaskOwner | null }): string | undefined {
  return task.owner && task.owner.id !== task.owner.name ? `API key ${task.owner.id}` : undefined;
}
