import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { DisplayState } from '@/lib/dashboard/wire';

const TONE: Record<DisplayState, BadgeTone> = {
  submitted: 'gray',
  working: 'blue',
  detached: 'amber',
  'input-required': 'violet',
  'auth-required': 'violet',
  completed: 'green',
  failed: 'red',
  canceled: 'gray',
  rejected: 'rose',
  unknown: 'gray',
};

export const STATE_LABEL: Record<DisplayState, string> = {
  submitted: 'submitted',
  working: 'working',
  detached: 'detached',
  'input-required': 'input required',
  'auth-required': 'auth required',
  completed: 'completed',
  failed: 'failed',
  canceled: 'canceled',
  rejected: 'rejected',
  unknown: 'unknown',
};

export function StateBadge({ state, testId }: { state: DisplayState; testId?: string }) {
  const running = state === 'working' || state === 'submitted' || state === 'detached';
  return (
    <Badge tone={TONE[state]} data-testid={testId} data-state={state}>
      {running ? <span aria-hidden className="size-1.5 animate-pulse rounded-full bg-current" /> : null}
      {STATE_LABEL[state]}
    </Badge>
  );
}
