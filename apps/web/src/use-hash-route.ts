import { useCallback, useSyncExternalStore } from 'react';

/** What the address shows: the start page, the settings, the inbox, or a conversation by id (`#conv_…`). */
export type Route =
  | { view: 'home' }
  | { view: 'settings' }
  | { view: 'inbox' }
  | { view: 'conversation'; id: string };

const parse = (hash: string): Route => {
  const value = decodeURIComponent(hash.replace(/^#\/?/, ''));
  if (!value) return { view: 'home' };
  if (value === 'settings') return { view: 'settings' };
  if (value === 'inbox') return { view: 'inbox' };
  return { view: 'conversation', id: value };
};

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/**
 * The route in the address bar's hash, so a reload, a bookmark and Back land where the user was.
 * `navigate` adds a history entry; `replace` swaps the current one (after a delete: Back must not lead to it).
 */
export function useHashRoute() {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const go = useCallback((route: Route, replace = false) => {
    const hash =
      route.view === 'home'
        ? ''
        : route.view === 'conversation'
          ? `#${encodeURIComponent(route.id)}`
          : `#${route.view}`;
    const url = `${window.location.pathname}${window.location.search}${hash}`;
    if (replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  }, []);
  return { route: parse(hash), navigate: go };
}
