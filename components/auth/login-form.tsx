'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardBody } from '@/components/ui/card';
import { Field, fieldState } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ClientError } from '@/lib/protocol/client-error';
import { useLogin } from '@/lib/query/use-session';

/** Sign-in through the OpenID provider, when configured: a link to the flow's start, and why the last try failed. */
export interface ProviderSignIn {
  name: string;
  href: string;
  error: string | null;
}

/** Exchanges an operator or viewer token for a session cookie (the token is not kept), or signs in through the provider. */
export function LoginForm({ next, provider }: { next: string; provider?: ProviderSignIn }) {
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
        {provider ? (
          <div className="space-y-2">
            <a
              href={provider.href}
              className="block w-full rounded-md border border-zinc-300 px-3 py-2 text-center text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
            >
              Sign in with {provider.name}
            </a>
            {provider.error ? (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {provider.error}
              </p>
            ) : null}
          </div>
        ) : null}
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
