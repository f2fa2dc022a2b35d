import type { RefObject } from 'react';
import type { Conversation, SearchPage } from './api.ts';
import { ConversationList } from './ConversationList.tsx';
import type { Me } from './ConversationPane.tsx';
import { waitingConversations } from './conversation-list-events.ts';
import { GearIcon, InboxIcon, MoonIcon, SunIcon } from './icons.tsx';
import type { Route } from './use-hash-route.ts';
import { useThemeSwitch } from './use-theme-switch.ts';

/**
 * The conversations column (a drawer on phones): a new conversation, the inbox, the list, the model
 * answering, the theme switch and the way to the settings; with the backdrop that closes it when it is a drawer.
 */
export function Sidebar({
  drawerRef,
  conversations,
  selected,
  waiting,
  model,
  page,
  backdrop,
  onCreate,
  onRename,
  onDelete,
  onShow,
  onCloseDrawer,
  search,
}: {
  drawerRef: RefObject<HTMLElement | null>;
  conversations: Conversation[];
  selected?: string;
  /**
   * The approvals and pauses waiting for the user: the inbox's count (a call suspended on its sub-agent, with
   * `waitsOn`, is not counted: its sub-agent's call is the one to decide), and the list's badges.
   */
  waiting: readonly { conversationId: string; waitsOn?: unknown }[];
  model: Me['model'];
  /** What is on screen: the settings, the inbox, a conversation or the start page. */
  page: Route['view'];
  /** The drawer is open over the page (phones): a click beside it closes it. */
  backdrop: boolean;
  onCreate: () => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (conversation: Conversation) => void;
  /** Goes to a page: a conversation, the inbox, the settings. */
  onShow: (to: Route) => void;
  onCloseDrawer: () => void;
  /** The server's search of titles, messages and answers (without it, the list filters titles it has). */
  search?: (q: string, cursor?: string) => Promise<SearchPage>;
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
        <InboxButton
          className="inbox-link"
          labelShown
          count={waiting.filter((item) => !item.waitsOn).length}
          current={page === 'inbox'}
          onClick={() => onShow({ view: 'inbox' })}
        />
        <ConversationList
          conversations={conversations}
          selected={selected}
          waiting={waitingConversations(waiting)}
          onSelect={(id) => onShow({ view: 'conversation', id })}
          onRename={onRename}
          onDelete={onDelete}
          {...(search && { search })}
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
              aria-current={page === 'settings' ? 'page' : undefined}
              onClick={() => onShow({ view: 'settings' })}
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

/**
 * The way to the inbox, with how many approvals and pauses wait (a count only when there are some). Named by
 * its content, the hidden word included: "Inbox 2 waiting" (what shows is all in the name).
 */
export function InboxButton({
  className,
  count,
  current,
  onClick,
  labelShown,
}: {
  className: string;
  count: number;
  current: boolean;
  onClick: () => void;
  /** "Inbox" in words beside the icon; else the icon alone. */
  labelShown: boolean;
}) {
  return (
    <button
      type="button"
      className={className}
      title="Approvals and pauses waiting for you"
      aria-current={current ? 'page' : undefined}
      onClick={onClick}
    >
      <InboxIcon />
      <span className={labelShown ? 'inbox-label' : 'visually-hidden'}>Inbox</span>
      {count > 0 && (
        <span className="inbox-count">
          {count}
          <span className="visually-hidden"> waiting</span>
        </span>
      )}
    </button>
  );
}
