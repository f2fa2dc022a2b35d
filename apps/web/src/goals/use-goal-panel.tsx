import { type ReactNode, useCallback } from 'react';
import type { Api, Prompt } from '../api.ts';
import { GoalBar } from './GoalBar.tsx';
import { type GoalHandle, useGoal } from './use-goal.ts';

/** The width below which the side panel covers the record (styles.css, use-drawer-and-panel.ts). */
const NARROW_PANEL = '(max-width: 1100px)';

/**
 * Scrolls the record to the call waiting for a decision (in the prompt `promptId` when given, else the latest
 * one) and puts the focus on its first button. False when the record shows none.
 */
export function showCallToDecide(promptId?: string): boolean {
  const cards = (root: ParentNode) =>
    [...root.querySelectorAll<HTMLElement>('section.approval-card, section.suspended-call')].filter(
      (card) => !card.classList.contains('pause-card'),
    );
  const prompt = promptId
    ? document.querySelector(`.messages article[data-prompt-id="${CSS.escape(promptId)}"]`)
    : null;
  const card =
    (prompt && cards(prompt).at(-1)) ?? cards(document.querySelector('.messages') ?? document).at(-1);
  if (!card) return false;
  card.scrollIntoView({ block: 'center' });
  card.querySelector<HTMLElement>('button')?.focus({ preventScroll: true });
  return true;
}

/**
 * What changes whenever the goal may have: a prompt's state (it ended, or waits for an approval or a pause's
 * decision: the goal pauses then), and each `goal-checkpoint` output the record gets.
 */
export function goalVersionOf(prompts: readonly Prompt[]): string {
  let checkpoints = 0;
  for (const prompt of prompts)
    checkpoints += prompt.output.filter((o) => o.type === 'goal-checkpoint').length;
  return `${prompts.map((p) => p.state).join(',')}|${checkpoints}`;
}

/**
 * The conversation's prompts ended (the side panel reloads at each), and its goal (when the server has the
 * goals plugin): loaded again when a prompt ends and at each
 * goal checkpoint the record gets; what the side panel's goal section takes, and the bar above the record
 * while the panel is closed. Showing the call a goal paused for approval waits on closes the panel where it
 * covers the record, and puts the focus on the call.
 */
export function useConversationGoal(
  pane: {
    api: Api;
    conversationId: string;
    me: { plugins: readonly string[] };
    panelShown: boolean;
    onClosePanel: () => void;
    onOpenPanel?: () => void;
  },
  prompts: readonly Prompt[],
  panelId: string,
): { ended: number; handle: GoalHandle; onShowCall: (promptId?: string) => void; bar: ReactNode } {
  const { api, conversationId, panelShown, onClosePanel: close, onOpenPanel: open } = pane;
  const enabled = pane.me.plugins.includes('goals');
  const ended = prompts.filter((p) => p.state !== 'running' && p.state !== 'waiting_for_approval').length;
  const handle = useGoal(api, conversationId, goalVersionOf(prompts), enabled);
  const onShowCall = useCallback(
    (promptId?: string) => {
      // The panel covering the record closes first: closing it puts the focus on its toggle, then the call takes it.
      if (panelShown && window.matchMedia(NARROW_PANEL).matches) close();
      showCallToDecide(promptId);
    },
    [close, panelShown],
  );
  const bar =
    enabled && !panelShown && open && handle.goal ? (
      <GoalBar goal={handle.goal} panelId={panelId} onShowPanel={open} onShowCall={onShowCall} />
    ) : null;
  return { ended, handle, onShowCall, bar };
}
