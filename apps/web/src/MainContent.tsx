import type { ReactNode } from 'react';
import type { Api } from './api.ts';
import { ConversationPane, type Me } from './ConversationPane.tsx';
import { Inbox, type InboxProps } from './Inbox.tsx';
import { NewConversation } from './NewConversation.tsx';
import { Settings } from './Settings.tsx';

/**
 * What the address shows under the top bar: the settings, the inbox, a conversation, or a new conversation (the
 * welcome and an empty composer; its first message makes it).
 */
export function MainContent({
  api,
  me,
  settings,
  inbox,
  selected,
  deleted,
  panelShown,
  focusComposer,
  draft,
  notFound,
  onClosePanel,
  onOpenPanel,
  onSent,
  onStart,
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
  /** How many times "New conversation" was chosen: each time, an empty composer with the cursor in it. */
  draft: number;
  notFound: ReactNode;
  onClosePanel: () => void;
  onOpenPanel?: () => void;
  onSent: () => void;
  /** Makes a conversation with its first message, and opens it. */
  onStart: (input: string, files: File[]) => Promise<void>;
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
        onOpenPanel={onOpenPanel}
        focusComposer={focusComposer}
        onSent={onSent}
        notFound={notFound}
      />
    );
  return <NewConversation key={draft} me={me} focus={draft > 0} onStart={onStart} />;
}
