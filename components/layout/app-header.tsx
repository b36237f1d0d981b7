'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/components/ui/cn';
import { FOCUS_RING } from '@/components/ui/button';
import { useSession } from '@/lib/query/use-session';
import { NotificationToggle } from '@/components/notify/notification-toggle';
import { SessionControls } from './session-controls';
import { ThemeToggle } from './theme-toggle';

interface NavItem {
  href: string;
  label: string;
  operatorOnly?: boolean;
}

const NAV: NavItem[] = [
  { href: '/', label: 'Tasks' },
  { href: '/dispatch', label: 'Dispatch', operatorOnly: true },
  { href: '/peers', label: 'Peers' },
  { href: '/audit', label: 'Audit', operatorOnly: true },
];

function isActive(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' || pathname.startsWith('/tasks') : pathname.startsWith(href);
}

export function AppHeader() {
  const pathname = usePathname();
  const { canOperate } = useSession();
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-3 py-2.5 sm:px-6">
        <Link href="/" className={cn('flex items-center gap-2 rounded font-semibold', FOCUS_RING)}>
          <span aria-hidden className="grid size-6 place-items-center rounded bg-indigo-600 text-xs font-bold text-white">
            S
          </span>
          Switchboard
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1">
          {NAV.filter((item) => !item.operatorOnly || canOperate).map((item) => (
            <Link
              key={item.href}
              href={item.href}
              aria-current={isActive(pathname, item.href) ? 'page' : undefined}
              className={cn(
                'rounded-md px-2.5 py-1.5 text-sm font-medium',
                FOCUS_RING,
                isActive(pathname, item.href)
                  ? 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white'
                  : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white',
              )}
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <NotificationToggle />
          <ThemeToggle />
          <SessionControls />
        </div>
      </div>
    </header>
  );
}
