import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type Api, type Conversation, createApi } from './api.ts';
import { readToken, saveToken } from './auth.ts';
import { Composer } from './Composer.tsx';
import { ConversationList } from './ConversationList.tsx';
import { PromptView } from './PromptView.tsx';
import { panelsOf, SidePanel } from './panels/SidePanel.tsx';
import { useConversation } from './use-conversation.ts';

type Me = Awaited<ReturnType<Api['me']>>;

function TokenForm({ error }: { error?: string }) {
  const [token, setToken] = useState('');
  return (
    <main className="token-page">
      <h1>Tessera</h1>
      <p>Open the link the server printed when it started, or paste your access token.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          saveToken(token.trim());
          window.location.reload();
        }}
      >
        <label>
          Access token
          <input value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit" className="primary" disabled={!token.trim()}>
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

function ConversationPane({
  api,
  conversationId,
  me,
  onSent,
}: {
  api: Api;
  conversationId: string;
  me: Me;
  /** After a message is sent (the server names an untitled conversation after its first one). */
  onSent: () => void;
}) {
  const live = useConversation(api, conversationId);
  const last = live.prompts.at(-1);
  const running = last?.state === 'running';
  const waiting = last?.state === 'waiting_for_approval';
  const endRef = useRef<HTMLDivElement>(null);
  const ended = live.prompts.filter(
    (p) => p.state !== 'running' && p.state !== 'waiting_for_approval',
  ).length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the record grows
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [live.prompts, live.streaming]);
  const fileUrl = useCallback(
    (fileId: string, inline: boolean) => api.fileUrl(conversationId, fileId, inline),
    [api, conversationId],
  );
  return (
    <div className={`conversation-layout${panelsOf(me.plugins).length === 0 ? ' without-panel' : ''}`}>
      <section className="conversation" aria-label="Conversation">
        <div className="messages" aria-live="polite">
          {live.prompts.length === 0 && (
            <div className="welcome">
              <h2>What can I do for you?</h2>
              {me.model.demo && (
                <p>You are talking to the offline demo model. Say “help” to see what it can do.</p>
              )}
            </div>
          )}
          {live.prompts.map((prompt) => (
            <PromptView
              key={prompt.id}
              prompt={prompt}
              streaming={prompt.id === last?.id ? live.streaming : {}}
              fileUrl={fileUrl}
              onDecide={async (id, approve, reason) => {
                if (approve) await api.approve(id);
                else await api.reject(id, reason);
              }}
            />
          ))}
          <div ref={endRef} />
        </div>
        {!live.connected && <p className="connection">Reconnecting…</p>}
        <Composer
          canAttach={me.plugins.includes('files')}
          running={running}
          busyReason={
            running
              ? 'The assistant is working. You can cancel it.'
              : waiting
                ? 'Decide on the approval above to continue.'
                : undefined
          }
          onSend={async (input, files) => {
            await api.send(conversationId, input, files);
            onSent();
          }}
          onCancel={async () => {
            if (last) await api.cancel(last.id);
          }}
        />
      </section>
      <SidePanel api={api} conversationId={conversationId} version={ended} plugins={me.plugins} />
    </div>
  );
}

/** The chat: conversations on the left, the live record in the middle, triggers, skills and blueprints on the right. */
export function App() {
  const token = useMemo(readToken, []);
  const api = useMemo(() => (token ? createApi(token) : undefined), [token]);
  const [me, setMe] = useState<Me>();
  const [error, setError] = useState<string>();
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [selected, setSelected] = useState<string | undefined>(
    () => new URL(window.location.href).hash.slice(1) || undefined,
  );

  const refresh = useCallback(async () => {
    if (!api) return;
    setConversations(await api.conversations());
  }, [api]);

  useEffect(() => {
    if (!api) return;
    api
      .me()
      .then(setMe)
      .then(refresh)
      .catch((e: Error) => setError(e.message));
  }, [api, refresh]);

  useEffect(() => {
    if (selected) window.history.replaceState(null, '', `#${selected}`);
  }, [selected]);

  if (!api || (error && !me)) return <TokenForm error={error} />;
  if (!me) return <p className="loading">Loading…</p>;

  const create = async () => {
    const conversation = await api.createConversation();
    await refresh();
    setSelected(conversation.id);
  };

  return (
    <div className="app">
      <nav className="sidebar" aria-label="Conversations">
        <div className="brand">
          <span className="logo" aria-hidden="true">
            ◆
          </span>
          Tessera
        </div>
        <button type="button" className="primary new-chat" onClick={() => void create()}>
          New conversation
        </button>
        <ConversationList
          conversations={conversations}
          selected={selected}
          onSelect={setSelected}
          onRename={async (id, title) => {
            await api.renameConversation(id, title);
            await refresh();
          }}
          onDelete={async (id) => {
            await api.deleteConversation(id);
            if (selected === id) setSelected(undefined);
            await refresh();
          }}
        />
        <div className={`model-label${me.model.demo ? ' demo' : ''}`} title="The model answering">
          {me.model.label}
        </div>
      </nav>
      <main className="main">
        {selected ? (
          <ConversationPane
            key={selected}
            api={api}
            conversationId={selected}
            me={me}
            onSent={() => void refresh()}
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
      </main>
    </div>
  );
}
