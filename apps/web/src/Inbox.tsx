import { useId, useMemo } from 'react';
import type { Api, Conversation, Output, PendingApproval, PendingPause } from './api.ts';
import { decideCall, loopControlOf } from './ConversationPane.tsx';
import { titleOf } from './conversation-groups.ts';
import { LoopControlContext } from './loop-control-context.ts';
import { ApprovalCard } from './outputs/ApprovalCard.tsx';
import { PauseCard } from './outputs/PauseCard.tsx';
import './inbox.css';

/** A pending call as the approval card reads a tool output. */
const callOutput = (item: PendingApproval) =>
  ({
    type: 'tool',
    id: item.toolCallId,
    createdAt: item.createdAt,
    toolId: item.toolId,
    input: item.input,
    result: { type: 'pending', reason: item.reason },
  }) as Output;

/** A pending pause as the pause card reads a pause output. */
const pauseOutput = (item: PendingPause) => ({ ...item, type: 'pause', id: item.pauseId }) as Output;

type Group = { conversationId: string; calls: PendingApproval[]; pauses: PendingPause[] };

/** The waiting items by conversation, the conversation waiting longest first. */
function byConversation(calls: PendingApproval[], pauses: PendingPause[]): Group[] {
  const groups = new Map<string, Group & { since: string }>();
  const groupOf = (conversationId: string, createdAt: string) => {
    let group = groups.get(conversationId);
    if (!group) {
      group = { conversationId, calls: [], pauses: [], since: createdAt };
      groups.set(conversationId, group);
    }
    if (createdAt < group.since) group.since = createdAt;
    return group;
  };
  for (const call of calls) groupOf(call.conversationId, call.createdAt).calls.push(call);
  for (const pause of pauses) groupOf(pause.conversationId, pause.createdAt).pauses.push(pause);
  return [...groups.values()].sort((a, b) => a.since.localeCompare(b.since));
}

/**
 * Everything that waits for the user, across their conversations: each tool call to approve and each pause
 * to decide, under a link to its conversation, decided here with the conversation's own cards.
 */
export type InboxProps = {
  api: Api;
  approvals: PendingApproval[];
  pauses: PendingPause[];
  /** For the titles (a conversation not listed is named by its id). */
  conversations: Conversation[];
  /** After a decision: read the waiting lists again (the decided item leaves them). */
  onDecided: () => Promise<void>;
};

export function Inbox({ api, approvals, pauses, conversations, onDecided }: InboxProps) {
  const id = useId();
  const control = useMemo(() => loopControlOf(api), [api]);
  const groups = byConversation(approvals, pauses);
  const titles = new Map(conversations.map((c) => [c.id, titleOf(c)]));
  return (
    <LoopControlContext value={control}>
      <div className="inbox">
        <div className="inbox-content">
          <h2>Waiting for you</h2>
          {groups.length === 0 ? (
            <p className="inbox-empty">Nothing waits for you: no tool call to approve, no pause to decide.</p>
          ) : (
            <p className="inbox-intro">
              Tool calls to approve and pauses to decide, in all your conversations, the longest waiting
              first.
            </p>
          )}
          {groups.map((group, g) => (
            <section key={group.conversationId} className="inbox-group" aria-labelledby={`${id}-${g}`}>
              <h3 id={`${id}-${g}`}>
                <a href={`#${encodeURIComponent(group.conversationId)}`}>
                  {titles.get(group.conversationId) ?? group.conversationId}
                </a>
              </h3>
              {group.calls.map((call) => (
                <ApprovalCard
                  key={call.toolCallId}
                  output={callOutput(call)}
                  onDecide={async (toolCallId, decision) => {
                    await decideCall(api, toolCallId, decision);
                    await onDecided();
                  }}
                />
              ))}
              {group.pauses.map((pause) => (
                <PauseCard
                  key={pause.pauseId}
                  output={pauseOutput(pause)}
                  onDecide={async (pauseId, choice, budgets) => {
                    await api.resumePause(pauseId, choice, budgets);
                    await onDecided();
                  }}
                />
              ))}
            </section>
          ))}
        </div>
      </div>
    </LoopControlContext>
  );
}
