'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardBody } from '@/components/ui/card';
import { Field, fieldState } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ClientError } from '@/lib/protocol/client-error';
import { useLogin } from '@/lib/query/use-session';

/** Exchanges an operator or viewer token for a session cookie; the token is not kept. */
export function LoginForm({ next }: { next: string }) {
  const [token, setToken] = useState('');
  const login = useLogin();
  const router = useRouter();
  const error = login.error instanceof ClientError ? login.error.message : login.error ? 'Could not log in; try again.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(token, {
      onSuccess: () => {
        setToken('');
        router.replace(next);
        router.refresh();
      },
    });
  };

  return (
    <Card className="w-full max-w-sm">
      <CardBody className="space-y-4 py-6">
        <div>
          <h1 className="text-lg font-semibold">Switchboard</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Log in with an operator or viewer token.</p>
        </div>
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field id="token" label="Token" error={error} hint="SWITCHBOARD_OPERATOR_TOKEN or SWITCHBOARD_VIEWER_TOKEN">
            <Input
              id="token"
              name="token"
              type="password"
              autoComplete="current-password"
              autoFocus
              required
              value={token}
              {...fieldState('token', error)}
              onChange={(e) => setToken(e.target.value)}
            />
          </Field>
          <Button type="submit" variant="primary" className="w-full" disabled={login.isPending || token.length === 0}>
            {login.isPending ? 'Logging in…' : 'Log in'}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
