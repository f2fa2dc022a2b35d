import type { RefObject } from 'react';
import { SIDE_PANEL_ID } from './ConversationPane.tsx';
import { MenuIcon, PanelIcon, PlusIcon } from './icons.tsx';
import { InboxButton } from './Sidebar.tsx';

/** The side panel's toggle: the panel's name ("Triggers, Skills and Blueprints") and whether it shows. */
export type PanelToggle = { label: string; shown: boolean; onToggle: () => void };

/**
 * The page's heading, with the drawer's menu button, the inbox and a new conversation (those three on phones,
 * where the list is a drawer), and the side panel's toggle.
 */
export function Topbar({
  menuButtonRef,
  drawerOpen,
  heading,
  waitingCount,
  inboxOpen,
  panel,
  onToggleDrawer,
  onInbox,
  onCreate,
}: {
  menuButtonRef: RefObject<HTMLButtonElement | null>;
  drawerOpen: boolean;
  heading: string;
  /** How many approvals and pauses wait: the inbox button's count. */
  waitingCount: number;
  inboxOpen: boolean;
  /** Only where the page has a side panel. */
  panel?: PanelToggle;
  onToggleDrawer: () => void;
  onInbox: () => void;
  onCreate: () => void;
}) {
  return (
    <header className="topbar">
      <button
        type="button"
        ref={menuButtonRef}
        className="icon topbar-button menu-button"
        aria-label="Conversations"
        aria-controls="conversation-drawer"
        aria-expanded={drawerOpen}
        onClick={onToggleDrawer}
      >
        <MenuIcon />
      </button>
      <h1 className="topbar-title">{heading || 'Tessera'}</h1>
      <InboxButton
        className="icon topbar-button inbox-small"
        labelShown={false}
        count={waitingCount}
        current={inboxOpen}
        onClick={onInbox}
      />
      <button
        type="button"
        className="icon topbar-button new-chat-small"
        aria-label="New conversation"
        onClick={onCreate}
      >
        <PlusIcon />
      </button>
      {panel && (
        <button
          type="button"
          className="icon topbar-button panel-toggle"
          aria-label={`${panel.shown ? 'Hide' : 'Show'} ${panel.label.toLowerCase()}`}
          title={panel.label}
          aria-controls={SIDE_PANEL_ID}
          aria-expanded={panel.shown}
          onClick={panel.onToggle}
        >
          <PanelIcon />
        </button>
      )}
    </header>
  );
}
