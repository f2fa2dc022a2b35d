import { useState } from 'react';
import type { Output } from '../api.ts';
import { PauseIcon } from '../icons.tsx';
import { type BudgetRaise, budgetAmount, proposedLimit, reachedBudgetOf } from './budget-raise.ts';
import './loop-control.css';

export type DecidePause = (
  pauseId: string,
  choice: 'continue' | 'stop',
  budgets?: BudgetRaise,
) => Promise<void>;

const REPEATING = 'The assistant seems to be repeating itself';

const SOURCE_TITLE: Record<string, string> = {
  // Recorded by core itself before the doom-loop check became a plugin.
  doom_loop: REPEATING,
  plugin: 'Paused for your decision',
  budget: 'The assistant reached its budget',
};

/** The card's title: the doom-loop plugin's pause says what it is; a source the UI does not know reads as a plugin's. */
function titleOf(output: Output): string {
  if (output.source === 'plugin' && output.plugin === 'doom-loop') return REPEATING;
  const source = String(output.source);
  return Object.hasOwn(SOURCE_TITLE, source) ? SOURCE_TITLE[source]! : SOURCE_TITLE.plugin!;
}

/**
 * A pause outside any tool call: a plugin asking (the doom-loop plugin: the model repeating the same calls),
 * or a budget reached. While pending it offers Continue (past a budget: with a larger one, double what was
 * reached) and Stop; once decided it says what was chosen.
 */
export function PauseCard({ output, onDecide }: { output: Output; onDecide: DecidePause }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const title = titleOf(output);
  const decision = output.decision as 'continue' | 'stop' | undefined;
  const reached = reachedBudgetOf(output);
  const raise = reached && { [reached.name]: proposedLimit(reached) };
  const decide = async (choice: 'continue' | 'stop') => {
    setBusy(true);
    setError(undefined);
    try {
      await onDecide(output.id, choice, choice === 'continue' ? raise : undefined);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  if (decision) {
    const raised = reached && (output.raised as Record<string, number> | undefined)?.[reached.name];
    return (
      <p className="pause-note">
        <PauseIcon /> {title}: {String(output.reason)} — you chose to{' '}
        <strong>{decision === 'continue' ? 'continue' : 'stop'}</strong>
        {reached && typeof raised === 'number' ? ` with ${budgetAmount(reached.name, raised)}` : ''}.
      </p>
    );
  }
  return (
    <section className="approval-card pause-card" aria-label={title}>
      <div className="approval-head">
        <span className="approval-icon">
          <PauseIcon />
        </span>
        <div>
          <strong>{title}</strong>
          <p className="approval-reason">{String(output.reason)}</p>
          {output.plugin ? (
            <p className="pause-plugin">Asked by the {String(output.plugin)} plugin.</p>
          ) : null}
          {reached ? (
            <p className="pause-plugin">
              It stops here unless you allow more: continuing raises the limit from{' '}
              {budgetAmount(reached.name, reached.limit)} to{' '}
              <strong>{budgetAmount(reached.name, proposedLimit(reached))}</strong>.
            </p>
          ) : null}
        </div>
      </div>
      <div className="approval-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => decide('continue')}>
          {reached ? 'Continue with a larger budget' : 'Continue'}
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => decide('stop')}>
          Stop
        </button>
      </div>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </section>
  );
}

/** A message the user sent while the prompt ran, as the model read it at a round boundary. */
export function SteeringNote({ output }: { output: Output }) {
  return (
    <div className="steering-note">
      <span className="steering-label">You, while it worked</span>
      <p>{String(output.text)}</p>
    </div>
  );
}
