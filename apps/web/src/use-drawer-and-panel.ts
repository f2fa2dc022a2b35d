import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { SIDE_PANEL_ID } from './ConversationPane.tsx';
import { useMediaQuery } from './use-media-query.ts';

/** The breakpoints of styles.css: the side panel becomes an overlay, the conversation list a drawer. */
const NARROW = '(max-width: 1100px)';
const PHONE = '(max-width: 700px)';

/**
 * What the width makes of the layout: the conversation list as a drawer on phones, the side panel as an
 * overlay when narrow; whether each is open, and closing them with the focus put back where it belongs.
 */
export function useDrawerAndPanel() {
  const narrow = useMediaQuery(NARROW);
  const phone = useMediaQuery(PHONE);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [panelShown, setPanelShown] = useState(!narrow);
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);

  // Crossing the breakpoint resets the panel to what suits the width: a column when wide, closed when narrow.
  useEffect(() => setPanelShown(!narrow), [narrow]);
  useEffect(() => {
    if (!phone) setDrawerOpen(false);
  }, [phone]);

  const closePanel = useCallback(() => {
    setPanelShown(false);
    document.querySelector<HTMLElement>('.panel-toggle')?.focus();
  }, []);
  // Opened over the page (narrow screens): the keyboard goes into it.
  useEffect(() => {
    if (narrow && panelShown) document.getElementById(SIDE_PANEL_ID)?.querySelector('button')?.focus();
  }, [narrow, panelShown]);
  const closeDrawer = useCallback((refocus: boolean) => {
    // At once, so the page is no longer inert when the menu button takes the focus back.
    flushSync(() => setDrawerOpen(false));
    if (refocus) menuButton.current?.focus();
  }, []);
  useEffect(() => {
    if (drawerOpen) drawer.current?.querySelector<HTMLElement>('input, button')?.focus();
  }, [drawerOpen]);

  return {
    narrow,
    phone,
    drawerOpen,
    toggleDrawer: () => setDrawerOpen((o) => !o),
    closeDrawer,
    panelShown,
    togglePanel: () => setPanelShown((s) => !s),
    openPanel: () => setPanelShown(true),
    closePanel,
    menuButton,
    drawer,
  };
}

export type DrawerAndPanel = ReturnType<typeof useDrawerAndPanel>;
