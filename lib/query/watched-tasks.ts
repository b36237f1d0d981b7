/**
 * The browser's own notification settings, in localStorage (per browser, not per account): the
 * opt-in flag and the tasks this operator dispatched or marked "watch", each with the last state
 * a notification was shown for, so a state is announced once even across reloads and tabs.
 */
import { useSyncExternalStore } from 'react';

const ENABLED_KEY = 'switchboard.browserNotifications';
const WATCHED_KEY = 'switchboard.watchedTasks';
/** Oldest watches are dropped beyond this many. */
const WATCHED_LIMIT = 100;

export interface WatchEntry {
  since: number;
  /** The state last announced (a terminal state ends the watch; input-required does not). */
  notified?: string;
}
export type WatchedTasks = Readonly<Record<string, WatchEntry>>;

interface Snapshot {
  enabled: boolean;
  watched: WatchedTasks;
}

const SERVER_SNAPSHOT: Snapshot = { enabled: false, watched: {} };
const listeners = new Set<() => void>();
let current: Snapshot | null = null;

function read(): Snapshot {
  try {
    const watched = JSON.parse(localStorage.getItem(WATCHED_KEY) ?? '{}') as WatchedTasks;
    return { enabled: localStorage.getItem(ENABLED_KEY) === 'on', watched: watched && typeof watched === 'object' ? watched : {} };
  } catch {
    return { enabled: false, watched: {} };
  }
}

function snapshot(): Snapshot {
  return (current ??= read());
}

function changed(): void {
  current = null;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed the settings.
  const onStorage = (e: StorageEvent) => (e.key === ENABLED_KEY || e.key === WATCHED_KEY) && changed();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function writeWatched(update: (w: Record<string, WatchEntry>) => void): void {
  const watched = { ...read().watched };
  update(watched);
  const kept = Object.entries(watched).sort((a, b) => b[1].since - a[1].since).slice(0, WATCHED_LIMIT);
  localStorage.setItem(WATCHED_KEY, JSON.stringify(Object.fromEntries(kept)));
  changed();
}

export function setNotificationsEnabled(on: boolean): void {
  localStorage.setItem(ENABLED_KEY, on ? 'on' : 'off');
  changed();
}

export function watchTask(taskId: string): void {
  writeWatched((w) => {
    w[taskId] ??= { since: Date.now() };
  });
}

export function unwatchTask(taskId: string): void {
  writeWatched((w) => {
    delete w[taskId];
  });
}

/**
 * True once per watched task and state: the caller shows the notification. Read afresh from
 * storage, so another tab that announced it already wins (the notification tag covers a tie).
 */
export function claimAnnouncement(taskId: string, state: string): boolean {
  const entry = read().watched[taskId];
  if (!entry || entry.notified === state) return false;
  writeWatched((w) => {
    w[taskId] = { ...entry, notified: state };
  });
  return true;
}

export function useNotificationSettings(): Snapshot {
  return useSyncExternalStore(subscribe, snapshot, () => SERVER_SNAPSHOT);
}

export type PermissionState = NotificationPermission | 'unsupported';

function permissionSnapshot(): PermissionState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** The browser's notification permission; null while server-rendering (and hydrating). */
export function useNotificationPermission(): PermissionState | null {
  return useSyncExternalStore(subscribe, permissionSnapshot, () => null);
}

/** Asks the browser (once the operator clicked), then opts in when granted. */
export async function enableNotifications(): Promise<void> {
  const granted = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (granted === 'granted') setNotificationsEnabled(true);
  else changed();
}
