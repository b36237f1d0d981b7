'use client';
/**
 * Light/dark toggle. Without a stored choice the page follows the system, live; a click stores
 * the opposite of what is shown, and Alt+click clears the choice (follow the system again).
 * The shown theme is the `dark` class on <html> (set first by the theme script).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import { THEME_KEY } from './theme-script';

const media = () => window.matchMedia('(prefers-color-scheme: dark)');
const apply = (dark: boolean) => document.documentElement.classList.toggle('dark', dark);

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

const isDark = () => document.documentElement.classList.contains('dark');

export function ThemeToggle() {
  const dark = useSyncExternalStore(subscribe, isDark, () => null);

  useEffect(() => {
    const m = media();
    const follow = () => {
      if (!localStorage.getItem(THEME_KEY)) apply(m.matches);
    };
    m.addEventListener('change', follow);
    return () => m.removeEventListener('change', follow);
  }, []);

  if (dark === null) return null;
  return (
    <Button
      size="sm"
      variant="secondary"
      data-testid="theme-toggle"
      aria-pressed={dark}
      title="Toggle dark mode (Alt+click: follow the system)"
      onClick={(e) => {
        if (e.altKey) {
          localStorage.removeItem(THEME_KEY);
          apply(media().matches);
          return;
        }
        localStorage.setItem(THEME_KEY, dark ? 'light' : 'dark');
        apply(!dark);
      }}
    >
      {dark ? 'Light' : 'Dark'}
    </Button>
  );
}
