import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { type Api, type Conversation, CSRF_HEADERS } from './api.ts';
import { useSession } from './auth.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ConversationList } from './ConversationList.tsx';
import { ConversationPane, type Me, NotFound, SIDE_PANEL_ID } from './ConversationPane.tsx';
import { titleOf } from './conversation-groups.ts';
import { GearIcon, MenuIcon, MoonIcon, PanelIcon, PlusIcon, SunIcon } from './icons.tsx';
import { panelLabel, panelsOf } from './panels/SidePanel.tsx';
import { Settings } from './Settings.tsx';
import { Toasts } from './Toasts.tsx';
import { applyTheme, readTheme } from './theme.ts';
import { useHashRoute } from './use-hash-route.ts';
import { useMediaQuery } from './use-media-query.ts';
import { UNDO_MS, usePendingDeletes } from './use-pending-deletes.ts';

/** The breakpoints of styles.css: the side panel becomes an overlay, the conversation list a drawer. */
const NARROW = '(max-width: 1100px)';
const PHONE = '(max-width: 700px)';

function TokenForm({ error, onSignIn }: { error?: string; onSignIn: (token: string) => Promise<void> }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main className="token-page">
      <h1>Tessera</h1>
      <p>Open the link the server printed when it started, or paste your access token.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          void onSignIn(token.trim()).finally(() => setBusy(false));
        }}
      >
        <label>
          Access token
          <input value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit" className="primary" disabled={!token.trim() || busy}>
          Continue
        </button>
      </form>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </main>
  );
}

/** The theme in effect (the stored choice, or the system's), and a switch to the other one. */
function useThemeSwitch() {
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

/** Deletes right away, or — when the page is being left — with a request that outlives the page. */
function deleter(api: Api) {
  return async (id: string, keepalive: boolean) => {
    if (!keepalive) return api.deleteConversation(id);
    await fetch(`/api/conversations/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      keepalive: true,
      credentials: 'same-origin',
      headers: CSRF_HEADERS,
    });
  };
}

/**
 * The chat: conversations on the left (a drawer on phones), the live record in the middle, triggers, skills
 * and blueprints on the right (an overlay below 1100 px, behind a toggle); settings; delete with undo.
 */
export function App() {
  const session = useSession();
  const api = session.api;
  const [me, setMe] = useState<Me>();
  const [error, setError] = useState<string>();
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const { route, navigate } = useHashRoute();
  const narrow = useMediaQuery(NARROW);
  const phone = useMediaQuery(PHONE);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [panelShown, setPanelShown] = useState(!narrow);
  const [confirming, setConfirming] = useState<{ conversation: Conversation; triggers?: string[] }>();
  const [created, setCreated] = useState<string>();
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const theme = useThemeSwitch();
  /** The latest `create` (defined after the early returns), for the keyboard shortcut. */
  const startConversation = useRef<() => Promise<void>>(undefined);

  // Crossing the breakpoint resets the panel to what suits the width: a column when wide, closed when narrow.
  useEffect(() => setPanelShown(!narrow), [narrow]);
  useEffect(() => {
    if (!phone) setDrawerOpen(false);
  }, [phone]);

  const refresh = useCallback(async () => {
    if (!api) return;
    setConversations(await api.conversations());
  }, [api]);
  const deletes = usePendingDeletes(
    useMemo(() => (api ? deleter(api) : async () => {}), [api]),
    useCallback(() => void refresh().catch(() => {}), [refresh]),
  );

  useEffect(() => {
    if (!api) return;
    api
      .me()
      .then(setMe)
      .then(refresh)
      .catch((e: Error) => setError(e.message));
  }, [api, refresh]);

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
  }, [drawerOpen, narrow, panelShown, closeDrawer, closePanel]);

  const current = conversations.find((c) => route.view === 'conversation' && c.id === route.id);
  const heading =
    route.view === 'settings'
      ? 'Settings'
      : route.view === 'home'
        ? 'Tessera'
        : current
          ? titleOf(current)
          : '';
  // The tab and the history name the conversation.
  useEffect(() => {
    document.title = route.view === 'home' || !heading ? 'Tessera' : `${heading} · Tessera`;
  }, [route.view, heading]);

  if (session.status === 'loading') return <p className="loading">Loading…</p>;
  if (!api || (error && !me)) return <TokenForm error={session.error ?? error} onSignIn={session.signIn} />;
  if (!me) return <p className="loading">Loading…</p>;

  const selected = route.view === 'conversation' ? route.id : undefined;
  const pendingIds = new Set(deletes.pending.map((p) => p.id));
  const visible = conversations.filter((c) => !pendingIds.has(c.id));
  const withPanel = panelsOf(me.plugins).length > 0;

  const open = (id: string) => {
    navigate({ view: 'conversation', id });
    closeDrawer(false);
  };
  const create = async () => {
    const conversation = await api.createConversation();
    await refresh();
    setCreated(conversation.id);
    open(conversation.id);
  };
  startConversation.current = create;
  const askDelete = (conversation: Conversation) => {
    setConfirming({ conversation });
    if (me.plugins.includes('triggers'))
      api.triggers(conversation.id).then(
        (list) =>
          setConfirming((now) =>
            now?.conversation.id === conversation.id
              ? { ...now, triggers: list.map((t) => t.trigger.name) }
              : now,
          ),
        () => {},
      );
  };
  const confirmDelete = (conversation: Conversation) => {
    setConfirming(undefined);
    deletes.schedule({
      id: conversation.id,
      title: titleOf(conversation),
      wasOpen: selected === conversation.id,
    });
    // The address must not keep pointing at it (a reload would open a ghost); Back must not lead to it either.
    if (selected === conversation.id) navigate({ view: 'home' }, true);
  };
  const notFound = (
    <NotFound onHome={() => navigate({ view: 'home' }, true)} onCreate={() => void create()} />
  );

  return (
    <div
      className={`app${drawerOpen ? ' drawer-open' : ''}${narrow && panelShown ? ' panel-overlay-open' : ''}`}
    >
      <nav className="sidebar" id="conversation-drawer" aria-label="Conversations" ref={drawer}>
        <div className="brand">
          <span className="logo" aria-hidden="true">
            ◆
          </span>
          Tessera
        </div>
        <button
          type="button"
          className="primary new-chat"
          onClick={() => void create()}
          aria-keyshortcuts="Control+Shift+O Meta+Shift+O"
          title="Ctrl+Shift+O"
        >
          New conversation
        </button>
        <ConversationList
          conversations={visible}
          selected={selected}
          onSelect={open}
          onRename={async (id, title) => {
            await api.renameConversation(id, title);
            await refresh();
          }}
          onDelete={askDelete}
        />
        <div className="sidebar-footer">
          <div className={`model-label${me.model.demo ? ' demo' : ''}`} title="The model answering">
            {me.model.label}
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
              aria-current={route.view === 'settings' ? 'page' : undefined}
              onClick={() => {
                navigate({ view: 'settings' });
                closeDrawer(false);
              }}
            >
              <GearIcon />
            </button>
          </div>
        </div>
      </nav>
      {phone && drawerOpen && (
        // A click beside the drawer closes it (Escape does too, for the keyboard).
        // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is a mouse/touch convenience
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the drawer
        <div className="backdrop" onClick={() => closeDrawer(true)} />
      )}
      {/* Behind the open drawer, the page is out of reach of Tab and screen readers. */}
      <main className="main" inert={phone && drawerOpen}>
        <header className="topbar">
          <button
            type="button"
            ref={menuButton}
            className="icon topbar-button menu-button"
            aria-label="Conversations"
            aria-controls="conversation-drawer"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen((o) => !o)}
          >
            <MenuIcon />
          </button>
          <h1 className="topbar-title">{heading || 'Tessera'}</h1>
          <button
            type="button"
            className="icon topbar-button new-chat-small"
            aria-label="New conversation"
            onClick={() => void create()}
          >
            <PlusIcon />
          </button>
          {route.view === 'conversation' && withPanel && current && (
            <button
              type="button"
              className="icon topbar-button panel-toggle"
              aria-label={`${panelShown ? 'Hide' : 'Show'} ${panelLabel(me.plugins).toLowerCase()}`}
              title={panelLabel(me.plugins)}
              aria-controls={SIDE_PANEL_ID}
              aria-expanded={panelShown}
              onClick={() => setPanelShown((s) => !s)}
            >
              <PanelIcon />
            </button>
          )}
        </header>
        {route.view === 'settings' ? (
          <Settings
            api={me.plugins.includes('instructions') ? (api ?? undefined) : undefined}
            model={me.model}
            userId={me.userId}
            onSignOut={() => void session.signOut()}
          />
        ) : selected && pendingIds.has(selected) ? (
          notFound
        ) : selected ? (
          <ConversationPane
            key={selected}
            api={api}
            conversationId={selected}
            me={me}
            panelShown={panelShown}
            onClosePanel={closePanel}
            focusComposer={created === selected}
            onSent={() => void refresh()}
            notFound={notFound}
          />
        ) : (
          <div className="welcome">
            <h2>Welcome, {me.userId}</h2>
            <p>Start a new conversation to talk to {me.model.label}.</p>
            <button type="button" className="primary" onClick={() => void create()}>
              New conversation
            </button>
          </div>
        )}
        {narrow && panelShown && route.view === 'conversation' && (
          // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is a mouse/touch convenience
          // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the panel
          <div className="backdrop panel-backdrop" onClick={closePanel} />
        )}
      </main>
      <Toasts
        toasts={[
          ...deletes.pending.map((p) => ({
            id: p.id,
            text: `Deleted “${p.title}”.`,
            action: {
              label: 'Undo',
              run: () => {
                deletes.undo(p.id);
                if (p.wasOpen) navigate({ view: 'conversation', id: p.id });
              },
            },
          })),
          ...(deletes.failure ? [{ id: 'failure', text: deletes.failure }] : []),
        ]}
        onDismiss={(id) => (id === 'failure' ? deletes.clearFailure() : deletes.commit(id))}
      />
      {confirming && (
        <ConfirmDialog
          title="Delete this conversation?"
          confirmLabel="Delete"
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => confirmDelete(confirming.conversation)}
        >
          <p>
            “{titleOf(confirming.conversation)}” will be deleted with everything in it: its messages, the
            files in it
            {me.plugins.includes('triggers') &&
              (confirming.triggers?.length
                ? `, and its ${confirming.triggers.length === 1 ? 'trigger' : `${confirming.triggers.length} triggers`} (${confirming.triggers.join(', ')}), which will not fire again`
                : ', and its triggers')}
            .
          </p>
          <p className="muted">You can undo for {UNDO_MS / 1000} seconds.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
