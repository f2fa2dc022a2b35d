import { useEffect, useState } from 'react';
import { applyTheme, readTheme } from './theme.ts';
import { useMediaQuery } from './use-media-query.ts';

/** The theme in effect (the stored choice, or the system's), and a switch to the other one. */
export function useThemeSwitch() {
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const [choice, setChoice] = useState(readTheme);
  useEffect(() => {
    // Settings changes the theme too: follow it when the storage or the attribute changes.
    const sync = () => setChoice(readTheme());
    const observer = new MutationObserver(sync);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  const dark = choice === 'dark' || (choice === 'system' && systemDark);
  return {
    dark,
    toggle: () => {
      const next = dark ? 'light' : 'dark';
      applyTheme(next);
      setChoice(next);
    },
  };
}
