import './goals.css';

/**
 * Where a message would be, for a prompt the goal started (a continuation: `metadata.goal`): "Goal, turn n",
 * opening to what the model was told.
 */
export function GoalTurnInput({ turn, input }: { turn?: number; input?: string | null }) {
  const title = typeof turn === 'number' ? `Goal, turn ${turn}` : 'Goal';
  return (
    <div className="trigger-input goal-turn">
      {input ? (
        <details>
          <summary>{title}: continued by the goal</summary>
          <p>{input}</p>
        </details>
      ) : (
        <span>{title}: continued by the goal</span>
      )}
    </div>
  );
}
