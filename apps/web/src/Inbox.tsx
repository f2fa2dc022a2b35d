import { useId, useMemo } from 'react';
import { ApprovalPath, rootConversationOf } from './ApprovalPath.tsx';
import type { Api, Conversation, Output, PendingApproval, PendingPause } from './api.ts';
import { decideCall, loopControlOf } from './ConversationPane.tsx';
import { titleOf } from './conversation-groups.ts';
import { PauseIcon } from './icons.tsx';
import { LoopControlContext } from './loop-control-context.ts';
import { ApprovalCard, type Decide } from './outputs/ApprovalCard.tsx';
import { PauseCard } from './outputs/PauseCard.tsx';
import './inbox.css';

/**
 * A pending call as the approval card reads a tool output: `startedAt` on a call that started and then asked
 * to wait (a suspended call), which the card shows as waiting rather than as an approval.
 */
const callOutput = (item: PendingApproval) =>
  ({
    type: 'tool',
    id: item.toolCallId,
    createdAt: item.createdAt,
    ...(item.startedAt !== undefined && { startedAt: item.startedAt }),
    toolId: item.toolId,
    input: item.input,
    result: { type: 'pending', reason: item.reason },
  }) as Output;

/** A pending pause as the pause card reads a pause output. */
const pauseOutput = (item: PendingPause) => ({ ...item, type: 'pause', id: item.pauseId }) as Output;

type Group = { conversationId: string; calls: PendingApproval[]; pauses: PendingPause[] };

/**
 * The waiting items by the user's conversation they hang from (a sub-agent's call under the conversation of
 * the user's prompt at the top of its path), the conversation waiting longest first.
 */
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
  for (const call of calls) groupOf(rootConversationOf(call), call.createdAt).calls.push(call);
  for (const pause of pauses) groupOf(rootConversationOf(pause), pause.createdAt).pauses.push(pause);
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
  // A conversation not (yet) in the list is named by the title its items' paths give.
  for (const item of [...approvals, ...pauses]) {
    for (const step of item.path ?? []) {
      if (step.title && !titles.has(step.conversationId)) titles.set(step.conversationId, step.title);
    }
  }
  const decide: Decide = async (toolCallId, decision) => {
    await decideCall(api, toolCallId, decision);
    await onDecided();
  };
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
                <div key={call.toolCallId} className="inbox-item">
                  {(call.path?.length ?? 0) > 1 && (
                    <ApprovalPath path={call.path} last={call.toolId} titles={titles} />
                  )}
                  {call.waitsOn ? (
                    <SuspendedCall call={call} approvals={approvals} pauses={pauses} decide={decide} />
                  ) : (
                    <ApprovalCard output={callOutput(call)} onDecide={decide} />
                  )}
                </div>
              ))}
              {group.pauses.map((pause) => (
                <div key={pause.pauseId} className="inbox-item">
                  {(pause.path?.length ?? 0) > 1 && (
                    <ApprovalPath path={pause.path} last="paused" titles={titles} />
                  )}
                  <PauseCard
                    output={pauseOutput(pause)}
                    onDecide={async (pauseId, choice, budgets) => {
                      await api.resumePause(pauseId, choice, budgets);
                      await onDecided();
                    }}
                  />
                </div>
              ))}
            </section>
          ))}
        </div>
      </div>
    </LoopControlContext>
  );
}

/** What waits in the prompt a suspended call waits on: its own calls and pauses in the lists. */
const waitingIn = (promptId: string, approvals: PendingApproval[], pauses: PendingPause[]) => ({
  calls: approvals.filter((other) => other.promptId === promptId),
  pause: pauses.find((pause) => pause.promptId === promptId),
});

/**
 * What a suspended call waits on in the end: the call (or pause) at the bottom of its tree, following the
 * calls suspended in turn; nothing when it is not in the lists (another page, or it ended).
 */
function bottomOf(
  call: PendingApproval,
  approvals: PendingApproval[],
  pauses: PendingPause[],
): { toolId: string } | { pause: true } | undefined {
  const seen = new Set([call.toolCallId]);
  let current = call;
  while (current.waitsOn) {
    const { calls, pause } = waitingIn(current.waitsOn.promptId, approvals, pauses);
    const decide = calls.find((other) => !other.waitsOn);
    if (decide) return { toolId: decide.toolId };
    if (pause) return { pause: true };
    const suspended = calls.find((other) => !seen.has(other.toolCallId));
    if (!suspended) return undefined;
    seen.add(suspended.toolCallId);
    current = suspended;
  }
  return undefined;
}

/**
 * A call suspended on the prompt it started (an agent waiting on its sub-agent): nothing to approve here,
 * the call (or pause) at the bottom of its tree is what the user decides, and this one goes on by itself.
 * Its other decisions (reject, skip or answer it: the parent goes on without the child) are behind "Other
 * decisions".
 */
function SuspendedCall({
  call,
  approvals,
  pauses,
  decide,
}: {
  call: PendingApproval;
  approvals: PendingApproval[];
  pauses: PendingPause[];
  decide: Decide;
}) {
  const waitsOn = call.waitsOn!;
  const { calls, pause } = waitingIn(waitsOn.promptId, approvals, pauses);
  const agent = (calls[0] ?? pause)?.path?.at(-1)?.agent;
  const bottom = bottomOf(call, approvals, pauses);
  return (
    <section className="suspended-call" aria-label={`${call.toolId} waits on its sub-agent`}>
      <div className="suspended-call-head">
        <span className="approval-icon">
          <PauseIcon />
        </span>
        <p>
          <code>{call.toolId}</code> waits on{' '}
          <a href={`#${encodeURIComponent(waitsOn.conversationId)}`}>
            {agent ? `its agent ${agent}` : 'its sub-agent'}
          </a>
          {bottom && 'pause' in bottom ? (
            ': decide its pause below, and it goes on by itself.'
          ) : bottom ? (
            <>
              : decide <code>{bottom.toolId}</code> below, and it goes on by itself.
            </>
          ) : (
            ', and goes on by itself once that is done.'
          )}
        </p>
      </div>
      <details className="suspended-call-more">
        <summary>Other decisions</summary>
        <ApprovalCard output={callOutput(call)} onDecide={decide} full />
      </details>
    </section>
  );
}
