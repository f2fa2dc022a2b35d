/** The theme the user chose in Settings; `system` follows prefers-color-scheme. */
export type Theme = 'system' | 'light' | 'dark';

const KEY = 'tessera.theme';

export function readTheme(): Theme {
  const stored = localStorage.getItem(KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** Sets `data-theme` on <html> (the stylesheet's light-dark() colors follow it) and remembers the choice. */
export function applyTheme(theme: Theme, store = true): void {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.dataset.theme = theme;
  if (!store) return;
  if (theme === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, theme);
}
