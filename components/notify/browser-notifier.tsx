'use client';
/** Mounted once in the dashboard layout: announces watched tasks (lib/query/use-browser-notifications). */
import { useBrowserNotifications } from '@/lib/query/use-browser-notifications';

export function BrowserNotifier() {
  useBrowserNotifications();
  return null;
}
