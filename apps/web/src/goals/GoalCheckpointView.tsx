import type { Output } from '../api.ts';
import { GoalProgressItem } from './GoalProgressItem.tsx';
import { labelOf, STATE_LABEL } from './goal-format.ts';
import type { GoalCheckpoint } from './goal-types.ts';
import './goals.css';

/** The checkpoint's fields as the server recorded them, read defensively (an older or partial one shows too). */
function checkpointOf(output: Output): GoalCheckpoint {
  const o = output as unknown as Partial<GoalCheckpoint>;
  return {
    type: 'goal-checkpoint',
    goalId: String(o.goalId ?? ''),
    state: (o.state ?? 'active') as GoalCheckpoint['state'],
    objective: String(o.objective ?? ''),
    criteria: Array.isArray(o.criteria) ? o.criteria : [],
    ...(typeof o.plan === 'string' && { plan: o.plan }),
    progress: Array.isArray(o.progress) ? o.progress : [],
    used: (o.used ?? {}) as GoalCheckpoint['used'],
    budgets: (o.budgets ?? {}) as GoalCheckpoint['budgets'],
    ...(typeof o.reason === 'string' && { reason: o.reason }),
  };
}

/**
 * A goal checkpoint in the record: one line (the goal's state, criteria met, this prompt's latest entry),
 * opening to the criteria and this prompt's progress entries.
 */
export function GoalCheckpointView({ output }: { output: Output }) {
  const checkpoint = checkpointOf(output);
  const met = checkpoint.criteria.filter((c) => c.met).length;
  const latest = checkpoint.reason ?? checkpoint.progress.at(-1)?.text;
  return (
    <details className={`goal-checkpoint goal-checkpoint-${checkpoint.state}`}>
      <summary>
        <span className="goal-checkpoint-label">Goal</span>
        <span className={`goal-state goal-state-${checkpoint.state}`}>
          {labelOf(STATE_LABEL, checkpoint.state)}
        </span>
        <span className="goal-checkpoint-count">
          {met}/{checkpoint.criteria.length} met
        </span>
        {latest && <span className="goal-checkpoint-text">{latest}</span>}
      </summary>
      <div className="goal-checkpoint-body">
        <p className="goal-objective">{checkpoint.objective}</p>
        <ul aria-label="Criteria at this checkpoint">
          {checkpoint.criteria.map((c) => (
            <li key={c.id} className={c.met ? 'met' : 'unmet'}>
              <span aria-hidden="true">{c.met ? '✓' : '○'}</span>{' '}
              <span className="visually-hidden">{c.met ? 'Met: ' : 'Not met: '}</span>
              {c.description}
            </li>
          ))}
        </ul>
        {checkpoint.plan && <p className="goal-plan">Plan: {checkpoint.plan}</p>}
        {checkpoint.progress.length > 0 && (
          <ol className="goal-log" aria-label="Progress in this prompt">
            {checkpoint.progress.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the entries are a fixed list
              <GoalProgressItem key={index} entry={entry} />
            ))}
          </ol>
        )}
      </div>
    </details>
  );
}
