'use client';
import { useRouter } from 'next/navigation';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useLogout, useSession } from '@/lib/query/use-session';

/** Who is signed in, or the open-mode notice the issue asks the header to show. */
export function SessionControls() {
  const { data: session } = useSession();
  const logout = useLogout();
  const router = useRouter();
  if (!session) return null;
  if (session.open) {
    return (
      <Badge tone="amber" data-testid="open-mode" title="No SWITCHBOARD_OPERATOR_TOKEN is set; the server is bound to loopback, so anyone on this machine is an operator.">
        Open dashboard · no operator token (loopback only)
      </Badge>
    );
  }
  return (
    <div className="flex items-center gap-2">
      <Badge tone={session.role === 'operator' ? 'indigo' : 'gray'} data-testid="session-role">
        {session.role ?? 'signed out'}
      </Badge>
      {session.via === 'session' ? (
        <Button
          size="sm"
          variant="ghost"
          disabled={logout.isPending}
          onClick={() => logout.mutate(undefined, { onSuccess: () => router.replace('/login') })}
        >
          Log out
        </Button>
      ) : null}
    </div>
  );
}
