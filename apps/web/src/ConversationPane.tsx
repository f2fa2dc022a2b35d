import { type ReactNode, useCallback, useEffect, useMemo, useRef } from 'react';
import type { Api } from './api.ts';
import { Composer } from './Composer.tsx';
import { ChildRunsContext, type ChildRunsContextValue } from './child-runs.ts';
import { useConversationGoal } from './goals/use-goal-panel.tsx';
import { type LoopControl, LoopControlContext } from './loop-control-context.ts';
import { readModelClass } from './model-class.ts';
import { DEMO_SUGGESTIONS } from './NewConversation.tsx';
import type { CallDecision } from './outputs/ApprovalCard.tsx';
import { PromptView } from './PromptView.tsx';
import { panelsOf, SidePanel } from './panels/SidePanel.tsx';
import { QueuedMessages } from './QueuedMessages.tsx';
import { useToolRunner } from './tools/use-tool-runner.tsx';
import { useBranches } from './use-branches.ts';
import { useConversation } from './use-conversation.ts';
import { useStickToBottom } from './use-stick-to-bottom.ts';

export type Me = Awaited<ReturnType<Api['me']>>;

export const SIDE_PANEL_ID = 'side-panel';

/** The page for an address that names no conversation of the user's: says so, and offers a way on. */
export function NotFound({ onHome, onCreate }: { onHome: () => void; onCreate: () => void }) {
  return (
    <div className="welcome not-found" role="alert">
      <h2>Conversation not found</h2>
      <p>It may have been deleted, or the link is wrong.</p>
      <div className="row-center">
        <button type="button" onClick={onHome}>
          Back to start
        </button>
        <button type="button" className="primary" onClick={onCreate}>
          New conversation
        </button>
      </div>
    </div>
  );
}

/** The server calls behind the approval and pause cards of the conversation. */
export const loopControlOf = (api: Api): LoopControl => ({
  toolSchema: async (toolCallId) => (await api.toolCall(toolCallId)).inputSchema,
  resumePause: async (pauseId, choice, budgets) => {
    await api.resumePause(pauseId, choice, budgets);
  },
});

/** A decision on a pending call, sent to its route (the approval cards of the conversation and the inbox). */
export async function decideCall(api: Api, toolCallId: string, decision: CallDecision): Promise<void> {
  if ('answer' in decision) await api.answer(toolCallId, decision.answer, decision.reason);
  else if ('skip' in decision) await api.skip(toolCallId, decision.reason);
  else if (decision.approve)
    await api.approve(toolCallId, 'input' in decision ? { input: decision.input } : undefined);
  else await api.reject(toolCallId, decision.reason);
}

/** What the record's cards use: the calls behind approvals and pauses, and the sub-agents' runs. */
function RecordContexts(props: {
  control: LoopControl;
  childRuns: ChildRunsContextValue;
  children: ReactNode;
}) {
  return (
    <LoopControlContext value={props.control}>
      <ChildRunsContext value={props.childRuns}>{props.children}</ChildRunsContext>
    </LoopControlContext>
  );
}

/** The sub-agents' runs the conversation's calls show inline, live from its stream. */
function useChildRunsValue(
  api: Api,
  live: Pick<ReturnType<typeof useConversation>, 'childRuns' | 'loadChild'>,
): ChildRunsContextValue {
  const { childRuns: runs, loadChild: load } = live;
  return useMemo(
    () => ({
      runs,
      load,
      fileUrl: (conversationId, fileId, inline) => api.fileUrl(conversationId, fileId, inline),
    }),
    [api, runs, load],
  );
}

/** Why the composer cannot simply send: an answer runs, or waits for a decision. */
const busyReasonOf = (running: boolean, waiting: boolean) =>
  running
    ? 'The assistant is working: steer it, queue a follow-up, or stop it.'
    : waiting
      ? 'Decide above to continue, or stop; you can also steer it or queue a follow-up.'
      : undefined;

type ConversationPaneProps = {
  api: Api;
  conversationId: string;
  me: Me;
  /** Whether the side panel shows (the app's toggle; a column when wide, an overlay when narrow). */
  panelShown: boolean;
  onClosePanel: () => void;
  /** Shows the side panel (the goal bar's "Open the goal"). */
  onOpenPanel?: () => void;
  /** A new conversation: put the cursor in the composer. */
  focusComposer: boolean;
  /** After a message is sent (the server names an untitled conversation after its first one). */
  onSent: () => void;
  /** What shows when the server has no such conversation. */
  notFound: ReactNode;
};

/** One conversation: the live record (kept scrolled to its end), the composer, and the side panel. */
export function ConversationPane(props: ConversationPaneProps) {
  const { api, conversationId, me, panelShown, onClosePanel, focusComposer, onSent, notFound } = props;
  const live = useConversation(api, conversationId);
  const last = live.prompts.at(-1);
  const running = last?.state === 'running';
  const waiting = last?.state === 'waiting_for_approval';
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const { atEnd, toEnd } = useStickToBottom(scroller, content);
  const { ended, ...goal } = useConversationGoal(props, live.prompts, SIDE_PANEL_ID);
  const fileUrl = useCallback(
    (fileId: string, inline: boolean) => api.fileUrl(conversationId, fileId, inline),
    [api, conversationId],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the pane opens
  useEffect(() => {
    if (focusComposer) document.querySelector<HTMLTextAreaElement>('.composer textarea')?.focus();
  }, []);
  // The composer sends with the model class from Settings, following the answer from its start.
  const send = async (input: string, files: File[]) => {
    toEnd();
    await api.send(conversationId, input, files, { model: readModelClass() });
    onSent();
  };
  const branches = useBranches(api, conversationId, live.prompts.length, onSent);
  const control = useMemo(() => loopControlOf(api), [api]);
  const childRuns = useChildRunsValue(api, live);
  // A run's prompt shows in the record by itself (events): follow it, as after a send.
  const toolRunner = useToolRunner(api, conversationId, () => {
    toEnd();
    onSent();
  });
  const withPanel = panelsOf(me.plugins).length > 0;
  const layout = useMemo(
    () =>
      ['conversation-layout', withPanel ? '' : 'without-panel', panelShown ? 'panel-shown' : 'panel-hidden']
        .filter(Boolean)
        .join(' '),
    [withPanel, panelShown],
  );
  if (live.notFound) return notFound;
  return (
    <div className={layout}>
      <RecordContexts control={control} childRuns={childRuns}>
        <section className="conversation" aria-label="Conversation">
          {goal.bar}
          <div className="messages-area">
            <div className="messages" ref={scroller}>
              <div className="messages-content" ref={content} aria-live="polite">
                {live.prompts.length === 0 && live.connected && (
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
                    busy={running || waiting}
                    last={prompt.id === last?.id}
                    onResend={branches.resendAt(prompt.id)}
                    branches={branches.switchAt(prompt.id)}
                    onDecide={(id, decision) => decideCall(api, id, decision)}
                  />
                ))}
              </div>
            </div>
            {!atEnd && (
              <button type="button" className="to-end" onClick={toEnd}>
                ↓ Latest
              </button>
            )}
          </div>
          {!live.connected && (
            <p className="connection">{live.wasConnected ? 'Reconnecting…' : 'Connecting…'}</p>
          )}
          <QueuedMessages messages={live.waiting} onRemove={(id) => api.removeMessage(conversationId, id)} />
          <Composer
            canAttach={me.plugins.includes('files')}
            maxUploadBytes={me.limits.maxUploadBytes}
            running={running || waiting}
            busyReason={busyReasonOf(running, waiting)}
            onSend={send}
            onSendWhileBusy={async (input, mode) => {
              await api.sendMessage(conversationId, input, mode, { model: readModelClass() });
            }}
            onCancel={async () => {
              if (last) await api.cancel(last.id);
            }}
            onRunTool={toolRunner.show}
            demo={me.model.demo}
            suggestions={
              me.model.demo && live.connected && live.prompts.length === 0 ? DEMO_SUGGESTIONS : undefined
            }
          />
          {toolRunner.dialog}
        </section>
      </RecordContexts>
      <SidePanel
        api={api}
        id={SIDE_PANEL_ID}
        conversationId={conversationId}
        version={ended}
        goal={goal.handle}
        onShowCall={goal.onShowCall}
        plugins={me.plugins}
        onClose={onClosePanel}
      />
    </div>
  );
}
