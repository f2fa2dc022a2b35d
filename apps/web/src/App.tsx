import { useEffect, useRef, useState } from 'react';
import type { Api, Conversation } from './api.ts';
import { useSession } from './auth.ts';
import { NotFound } from './ConversationPane.tsx';
import { titleOf } from './conversation-groups.ts';
import { DeleteConversationDialog } from './DeleteConversationDialog.tsx';
import { MainContent } from './MainContent.tsx';
import { readModelClass } from './model-class.ts';
import { panelLabel, panelsOf } from './panels/SidePanel.tsx';
import { Sidebar } from './Sidebar.tsx';
import { Toasts } from './Toasts.tsx';
import { Topbar } from './Topbar.tsx';
import { useAccount } from './use-account.ts';
import { useConversationDeletion } from './use-conversation-deletion.ts';
import { type DrawerAndPanel, useDrawerAndPanel } from './use-drawer-and-panel.ts';
import { type Route, useHashRoute } from './use-hash-route.ts';
import { useKeyboardShortcuts } from './use-keyboard-shortcuts.ts';

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

const PAGE_NAMES = { home: 'Tessera', settings: 'Settings', inbox: 'Inbox' } as const;

/** The top bar's heading: the page's name, or the open conversation's title ('' until it is listed). */
const headingOf = (route: Route, current: Conversation | undefined) =>
  route.view === 'conversation' ? (current ? titleOf(current) : '') : PAGE_NAMES[route.view];

/** The top bar's heading; the tab and the history name the conversation too. */
function usePageHeading(route: Route, current: Conversation | undefined) {
  const heading = headingOf(route, current);
  useEffect(() => {
    document.title = route.view === 'home' || !heading ? 'Tessera' : `${heading} · Tessera`;
  }, [route.view, heading]);
  return heading;
}

/** The top bar's toggle of the open conversation's side panel, when the server has panels to show. */
const panelToggleOf = (plugins: string[], layout: DrawerAndPanel) =>
  panelsOf(plugins).length > 0
    ? { label: panelLabel(plugins), shown: layout.panelShown, onToggle: layout.togglePanel }
    : undefined;

/** Makes a conversation with its first message; its id. */
async function startConversationWith(api: Api, input: string, files: File[], refresh: () => Promise<void>) {
  const { id } = await api.createConversation();
  try {
    await api.send(id, input, files, { model: readModelClass() });
  } catch (e) {
    // Not sent (refused, too large): no empty conversation is left; the composer keeps the message.
    await api.deleteConversation(id).catch(() => undefined);
    throw e;
  }
  await refresh();
  return id;
}

/** Goes to a page of the app; on a phone, that closes the drawer. */
const showing = (navigate: (to: Route) => void, closeDrawer: (refocus: boolean) => void) => (to: Route) => {
  navigate(to);
  closeDrawer(false);
};

/** What the conversation does with the side panel: close it, or open it (its goal bar). */
const panelCallsOf = ({ closePanel, openPanel }: DrawerAndPanel) => ({
  onClosePanel: closePanel,
  onOpenPanel: openPanel,
});

/** The layout's classes: the drawer open (phones), the side panel over the page (narrow screens). */
const appClass = ({ drawerOpen, narrow, panelShown }: DrawerAndPanel) =>
  `app${drawerOpen ? ' drawer-open' : ''}${narrow && panelShown ? ' panel-overlay-open' : ''}`;

/**
 * The chat: conversations on the left (a drawer on phones), the live record in the middle, triggers, skills
 * and blueprints on the right (an overlay below 1100 px, behind a toggle); settings; delete with undo.
 */
export function App() {
  const session = useSession();
  const api = session.api;
  const { me, error, conversations, approvals, pauses, refresh, reloadWaiting, rename } = useAccount(api);
  const { route, navigate } = useHashRoute();
  const layout = useDrawerAndPanel();
  // The conversation just made (its composer has the cursor); each "New conversation": an empty composer.
  const [opened, setOpened] = useState<{ created?: string; draft: number }>({ draft: 0 });
  /** The latest `create` (defined after the early returns), for the keyboard shortcut. */
  const startConversation = useRef<() => Promise<void>>(undefined);
  useKeyboardShortcuts(startConversation, layout);
  const selected = route.view === 'conversation' ? route.id : undefined;
  const withTriggers = me?.plugins.includes('triggers') ?? false;
  const deletion = useConversationDeletion({ api, withTriggers, refresh, selected, navigate });
  const current = conversations.find((c) => c.id === selected);
  const heading = usePageHeading(route, current);

  if (session.status === 'loading') return <p className="loading">Loading…</p>;
  if (!api || (error && !me)) return <TokenForm error={session.error ?? error} onSignIn={session.signIn} />;
  if (!me) return <p className="loading">Loading…</p>;

  const { narrow, phone, drawerOpen, panelShown, closeDrawer } = layout;
  const show = showing(navigate, closeDrawer);
  const create = async () => {
    setOpened(({ created, draft }) => ({ created, draft: draft + 1 }));
    show({ view: 'home' });
  };
  const start = async (input: string, files: File[]) => {
    const id = await startConversationWith(api, input, files, refresh);
    setOpened(({ draft }) => ({ created: id, draft }));
    show({ view: 'conversation', id });
  };
  startConversation.current = create;

  return (
    <div className={appClass(layout)}>
      <Sidebar
        drawerRef={layout.drawer}
        conversations={conversations.filter((c) => !deletion.pendingIds.has(c.id))}
        selected={selected}
        waiting={[...approvals, ...pauses]}
        model={me.model}
        page={route.view}
        backdrop={phone && drawerOpen}
        onCreate={() => void create()}
        onRename={rename}
        onDelete={deletion.ask}
        onShow={show}
        onCloseDrawer={() => closeDrawer(true)}
        search={api.search}
      />
      {/* Behind the open drawer, the page is out of reach of Tab and screen readers. */}
      <main className="main" inert={phone && drawerOpen}>
        <Topbar
          menuButtonRef={layout.menuButton}
          drawerOpen={drawerOpen}
          heading={heading}
          waitingCount={approvals.filter((call) => !call.waitsOn).length + pauses.length}
          inboxOpen={route.view === 'inbox'}
          onInbox={() => show({ view: 'inbox' })}
          panel={current && panelToggleOf(me.plugins, layout)}
          onToggleDrawer={layout.toggleDrawer}
          onCreate={() => void create()}
        />
        <MainContent
          api={api}
          me={me}
          settings={route.view === 'settings'}
          inbox={
            route.view === 'inbox'
              ? { approvals, pauses, conversations, onDecided: reloadWaiting }
              : undefined
          }
          selected={selected}
          deleted={selected !== undefined && deletion.pendingIds.has(selected)}
          panelShown={panelShown}
          focusComposer={opened.created === selected}
          draft={opened.draft}
          notFound={<NotFound onHome={() => navigate({ view: 'home' }, true)} onCreate={create} />}
          {...panelCallsOf(layout)}
          onSent={() => void refresh()}
          onStart={start}
          onSignOut={() => void session.signOut()}
        />
        {narrow && panelShown && route.view === 'conversation' && (
          // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is a mouse/touch convenience
          // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the panel
          <div className="backdrop panel-backdrop" onClick={layout.closePanel} />
        )}
      </main>
      <Toasts toasts={deletion.toasts} onDismiss={deletion.dismiss} />
      {deletion.confirming && (
        <DeleteConversationDialog
          request={deletion.confirming}
          withTriggers={withTriggers}
          onCancel={deletion.cancel}
          onConfirm={deletion.confirm}
        />
      )}
    </div>
  );
}
