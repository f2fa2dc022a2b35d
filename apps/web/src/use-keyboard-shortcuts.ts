import { type RefObject, useEffect } from 'react';
import type { DrawerAndPanel } from './use-drawer-and-panel.ts';

/**
 * The app's keys: Ctrl/⌘+Shift+O starts a conversation (`startConversation`, the latest one), Ctrl/⌘+K
 * searches the list, Escape closes the drawer or the overlaid panel. Not while a dialog is open.
 */
export function useKeyboardShortcuts(
  startConversation: RefObject<(() => Promise<void>) | undefined>,
  { drawerOpen, narrow, panelShown, closeDrawer, closePanel }: DrawerAndPanel,
) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('dialog[open]')) return;
      const mod = e.ctrlKey || e.metaKey;
      // The shortcuts of other chat apps: Ctrl/⌘+Shift+O starts a conversation, Ctrl/⌘+K searches the list.
      if (mod && e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        void startConversation.current?.();
        return;
      }
      const search = document.querySelector<HTMLInputElement>('.sidebar input.search');
      if (mod && e.key.toLowerCase() === 'k' && search?.checkVisibility()) {
        e.preventDefault();
        search.focus();
        return;
      }
      if (e.key !== 'Escape') return;
      if (drawerOpen) closeDrawer(true);
      else if (narrow && panelShown) closePanel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [startConversation, drawerOpen, narrow, panelShown, closeDrawer, closePanel]);
}
