import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { authRequired, identifyHeaders } from '@/lib/auth/guard';
import { LoginForm } from '@/components/auth/login-form';
import { safeNextPath } from '@/lib/auth/safe-next';

export const metadata: Metadata = { title: 'Log in' };

/** Only same-origin paths: a login link must not bounce the operator to another site. */
function safeNext(next: string | string[] | undefined): string {
  return safeNextPath(Array.isArray(next) ? next[0] : next);
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const next = safeNext((await searchParams).next);
  if (!authRequired() || identifyHeaders(await headers())) redirect(next);
  return (
    <main className="grid min-h-dvh place-items-center px-4">
      <LoginForm next={next} />
    </main>
  );
}
