import { useEffect } from 'react';
import { Composer } from './Composer.tsx';
import type { Me } from './ConversationPane.tsx';

/** What the offline demo model can do (its "help" lists them): the messages an empty conversation offers. */
export const DEMO_SUGGESTIONS = ['help', 'weather in Paris', 'make a sales report', 'count to 30 slowly'];

/**
 * A conversation not made yet: the welcome and an empty composer. Nothing is stored until the first message:
 * `onStart` makes the conversation with it (a send that fails keeps the text and the files, and says why).
 */
export function NewConversation({
  me,
  focus,
  onStart,
}: {
  me: Me;
  /** Opened by "New conversation": put the cursor in the composer. */
  focus: boolean;
  onStart: (input: string, files: File[]) => Promise<void>;
}) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when it opens
  useEffect(() => {
    if (focus) document.querySelector<HTMLTextAreaElement>('.composer textarea')?.focus();
  }, []);
  return (
    <div className="conversation-layout without-panel">
      <section className="conversation" aria-label="New conversation">
        <div className="messages-area">
          <div className="messages">
            <div className="messages-content">
              <div className="welcome">
                <h2>Welcome, {me.userId}</h2>
                <p>What can I do for you? Your message starts a conversation with {me.model.label}.</p>
              </div>
            </div>
          </div>
        </div>
        <Composer
          canAttach={me.plugins.includes('files')}
          maxUploadBytes={me.limits.maxUploadBytes}
          onSend={onStart}
          onCancel={async () => {}}
          suggestions={me.model.demo ? DEMO_SUGGESTIONS : undefined}
          demo={me.model.demo}
        />
      </section>
    </div>
  );
}
