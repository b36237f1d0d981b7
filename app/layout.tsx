import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { identifyHeaders } from '@/lib/auth/guard';
import { sessionInfo } from '@/lib/api/session-api';
import { Providers } from './providers';
import { THEME_SCRIPT } from '@/components/layout/theme-script';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Switchboard', template: '%s · Switchboard' },
  description: 'Self-hosted A2A hub: every task, inbound and outbound, live.',
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#09090b' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = sessionInfo(identifyHeaders(await headers()));
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-dvh bg-zinc-50 text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <Providers session={session}>{children}</Providers>
      </body>
    </html>
  );
}
