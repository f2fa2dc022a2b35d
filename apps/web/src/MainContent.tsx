import type { ReactNode } from 'react';
import type { Api } from './api.ts';
import { ConversationPane, type Me } from './ConversationPane.tsx';
import { Inbox, type InboxProps } from './Inbox.tsx';
import { Settings } from './Settings.tsx';

/** What the address shows under the top bar: the settings, the inbox, a conversation, or the welcome page. */
export function MainContent({
  api,
  me,
  settings,
  inbox,
  selected,
  deleted,
  panelShown,
  focusComposer,
  notFound,
  onClosePanel,
  onSent,
  onCreate,
  onSignOut,
}: {
  api: Api;
  me: Me;
  /** The address is the settings'. */
  settings: boolean;
  /** What the inbox lists, when the address is its own. */
  inbox: Omit<InboxProps, 'api'> | undefined;
  /** The conversation the address names. */
  selected?: string;
  /** It is deleted (undo is still possible): the page says it is not found. */
  deleted: boolean;
  panelShown: boolean;
  /** A new conversation: put the cursor in the composer. */
  focusComposer: boolean;
  notFound: ReactNode;
  onClosePanel: () => void;
  onSent: () => void;
  onCreate: () => void;
  onSignOut: () => void;
}) {
  if (settings)
    return (
      <Settings
        api={me.plugins.includes('instructions') ? api : undefined}
        model={me.model}
        userId={me.userId}
        onSignOut={onSignOut}
      />
    );
  if (inbox) return <Inbox api={api} {...inbox} />;
  if (selected && deleted) return notFound;
  if (selected)
    return (
      <ConversationPane
        key={selected}
        api={api}
        conversationId={selected}
        me={me}
        panelShown={panelShown}
        onClosePanel={onClosePanel}
        focusComposer={focusComposer}
        onSent={onSent}
        notFound={notFound}
      />
    );
  return (
    <div className="welcome">
      <h2>Welcome, {me.userId}</h2>
      <p>Start a new conversation to talk to {me.model.label}.</p>
      <button type="button" className="primary" onClick={onCreate}>
        New conversation
      </button>
    </div>
  );
}
