'use client';
/**
 * The list's filters and the live/paused switch live in the URL, so a filtered view can be
 * shared or reloaded. Values that do not parse are ignored rather than breaking the page.
 */
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { TaskFilterSchema, type TaskFilter } from '@/lib/dashboard/wire';

const FILTER_KEYS = ['state', 'direction', 'agent', 'range', 'q'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

export function useListParams() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const filter = useMemo<TaskFilter>(() => {
    const out: Record<string, string> = {};
    for (const key of FILTER_KEYS) {
      const value = params.get(key);
      if (!value) continue;
      const one = TaskFilterSchema.shape[key].safeParse(value);
      if (one.success && one.data !== undefined) out[key] = one.data;
    }
    return TaskFilterSchema.parse(out);
  }, [params]);

  const paused = params.get('live') === 'paused';

  // router.replace lands a render later; two quick changes (a debounced search commit and a
  // select) must build on each other, not both on the URL as it was, or one is lost.
  const latest = useRef(params.toString());
  useEffect(() => {
    latest.current = params.toString();
  }, [params]);

  const update = useCallback(
    (changes: Partial<Record<FilterKey | 'live', string | undefined>>) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      const qs = next.toString();
      latest.current = qs;
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [pathname, router],
  );

  return { filter, paused, update };
}
