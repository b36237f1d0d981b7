/**
 * Runs in <head> before the first paint: `dark` on <html> from the stored choice
 * (localStorage `sb-theme`: "dark" | "light"), else from the system's prefers-color-scheme.
 * A constant string of our own code, no input in it.
 */
export const THEME_KEY = 'sb-theme';

export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem('${THEME_KEY}');var d=t?t==='dark':matchMedia('(prefers-color-scheme: dark)').matches;document.documentElement.classList.toggle('dark',d)}catch(e){}})()`;
