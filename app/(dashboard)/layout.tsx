import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { identifyHeaders } from '@/lib/auth/guard';
import { AppHeader } from '@/components/layout/app-header';
import { ConfigErrors } from '@/components/layout/config-errors';
import { BrowserNotifier } from '@/components/notify/browser-notifier';

/** Every dashboard page needs a caller; the API enforces roles again on each request. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  if (!identifyHeaders(await headers())) redirect('/login');
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm dark:focus:bg-zinc-900">
        Skip to content
      </a>
      <AppHeader />
      <BrowserNotifier />
      <main id="main" className="mx-auto w-full max-w-7xl px-3 py-4 sm:px-6 sm:py-6">
        <ConfigErrors />
        {children}
      </main>
    </>
  );
}
