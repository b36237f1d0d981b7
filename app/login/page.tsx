import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { authRequired, identifyHeaders } from '@/lib/auth/guard';
import { LoginForm } from '@/components/auth/login-form';
import { safeNextPath } from '@/lib/auth/safe-next';
import { getSettings } from '@/lib/config/settings';
import { LOGIN_START_PATH, signInErrorText } from '@/lib/auth/dashboard-oidc';

export const metadata: Metadata = { title: 'Log in' };

/** Only same-origin paths: a login link must not bounce the operator to another site. */
function safeNext(next: string | string[] | undefined): string {
  return safeNextPath(Array.isArray(next) ? next[0] : next);
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; error?: string | string[] }> }) {
  const params = await searchParams;
  const next = safeNext(params.next);
  if (!authRequired() || identifyHeaders(await headers())) redirect(next);
  const login = getSettings().oidcLogin;
  const provider = login
    ? { name: login.name, href: `${LOGIN_START_PATH}?next=${encodeURIComponent(next)}`, error: signInErrorText(Array.isArray(params.error) ? params.error[0] : params.error, login) }
    : undefined;
  return (
    <main className="grid min-h-dvh place-items-center px-4">
      <LoginForm next={next} provider={provider} />
    </main>
  );
}
