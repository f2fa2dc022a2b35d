import type { RefObject } from 'react';
import type { Conversation } from './api.ts';
import { ConversationList } from './ConversationList.tsx';
import type { Me } from './ConversationPane.tsx';
import { GearIcon, MoonIcon, SunIcon } from './icons.tsx';
import { useThemeSwitch } from './use-theme-switch.ts';

/**
 * The conversations column (a drawer on phones): a new conversation, the list, the model answering, the
 * theme switch and the way to the settings; with the backdrop that closes it when it is a drawer.
 */
export function Sidebar({
  drawerRef,
  conversations,
  selected,
  model,
  settingsOpen,
  backdrop,
  onCreate,
  onSelect,
  onRename,
  onDelete,
  onSettings,
  onCloseDrawer,
}: {
  drawerRef: RefObject<HTMLElement | null>;
  conversations: Conversation[];
  selected?: string;
  model: Me['model'];
  /** The settings are on screen. */
  settingsOpen: boolean;
  /** The drawer is open over the page (phones): a click beside it closes it. */
  backdrop: boolean;
  onCreate: () => void;
  onSelect: (id: string) => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (conversation: Conversation) => void;
  onSettings: () => void;
  onCloseDrawer: () => void;
}) {
  const theme = useThemeSwitch();
  return (
    <>
      <nav className="sidebar" id="conversation-drawer" aria-label="Conversations" ref={drawerRef}>
        <div className="brand">
          <span className="logo" aria-hidden="true">
            ◆
          </span>
          Tessera
        </div>
        <button
          type="button"
          className="primary new-chat"
          onClick={onCreate}
          aria-keyshortcuts="Control+Shift+O Meta+Shift+O"
          title="Ctrl+Shift+O"
        >
          New conversation
        </button>
        <ConversationList
          conversations={conversations}
          selected={selected}
          onSelect={onSelect}
          onRename={onRename}
          onDelete={onDelete}
        />
        <div className="sidebar-footer">
          <div className={`model-label${model.demo ? ' demo' : ''}`} title="The model answering">
            {model.label}
          </div>
          <div className="sidebar-actions">
            <button
              type="button"
              className="icon"
              aria-label={theme.dark ? 'Switch to light theme' : 'Switch to dark theme'}
              title={theme.dark ? 'Light theme' : 'Dark theme'}
              onClick={theme.toggle}
            >
              {theme.dark ? <SunIcon /> : <MoonIcon />}
            </button>
            <button
              type="button"
              className="icon"
              aria-label="Settings"
              title="Settings"
              aria-current={settingsOpen ? 'page' : undefined}
              onClick={onSettings}
            >
              <GearIcon />
            </button>
          </div>
        </div>
      </nav>
      {backdrop && (
        // A click beside the drawer closes it (Escape does too, for the keyboard).
        // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is a mouse/touch convenience
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the drawer
        <div className="backdrop" onClick={onCloseDrawer} />
      )}
    </>
  );
}
