import { useCallback } from 'react';
import type { Prompt } from '../api.ts';

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
 * What the side panel's goal section needs from the conversation: a version that changes when a prompt ends
 * and at each goal checkpoint the record gets (it reloads the goal then), and how to show the call a goal
 * paused for approval waits on (closing the panel where it covers the record).
 */
export function useGoalPanelProps(prompts: readonly Prompt[], ended: number, closePanel: () => void) {
  const checkpoints = prompts.reduce(
    (n, p) => n + p.output.filter((o) => o.type === 'goal-checkpoint').length,
    0,
  );
  const onShowCall = useCallback(
    (promptId?: string) => {
      if (showCallToDecide(promptId) && window.matchMedia(NARROW_PANEL).matches) closePanel();
    },
    [closePanel],
  );
  return { goalVersion: ended + checkpoints, onShowCall };
}
