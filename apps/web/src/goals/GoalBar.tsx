import { labelOf, metCount, PAUSE_LABEL, STATE_LABEL } from './goal-format.ts';
import type { Goal } from './goal-types.ts';
import './goals.css';

/**
 * The goal in one line above the record, while the side panel is closed (narrow screens, or hidden): its
 * state, why it paused or how it ended, and buttons to the call it waits on and to the panel.
 */
export function GoalBar({
  goal,
  panelId,
  onShowPanel,
  onShowCall,
}: {
  goal: Goal;
  panelId: string;
  onShowPanel: () => void;
  onShowCall: (promptId?: string) => void;
}) {
  const approval = goal.state === 'paused' && goal.pause?.kind === 'approval';
  const why =
    goal.state === 'paused' && goal.pause
      ? // For approval the call says what waits (the button leads to it); other pauses say why here.
        approval
        ? labelOf(PAUSE_LABEL, 'approval')
        : `${labelOf(PAUSE_LABEL, goal.pause.kind)} — ${goal.pause.reason}`
      : goal.state === 'active'
        ? `${metCount(goal)} of ${goal.criteria.length} criteria met`
        : (goal.endReason ?? `${metCount(goal)} of ${goal.criteria.length} criteria met`);
  return (
    <section className={`goal-bar goal-bar-${goal.state}`} aria-label="Goal summary">
      <span className="goal-bar-label">Goal</span>
      <span className={`goal-state goal-state-${goal.state}`}>{labelOf(STATE_LABEL, goal.state)}</span>
      <span className="goal-bar-text" title={why}>
        {why}
      </span>
      <span className="goal-bar-actions">
        {approval && (
          <button type="button" onClick={() => onShowCall(goal.pause?.promptId)}>
            Show the call
          </button>
        )}
        <button type="button" aria-controls={panelId} onClick={onShowPanel}>
          Open the goal
        </button>
      </span>
    </section>
  );
}
