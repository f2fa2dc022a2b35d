import { type Dispatch, type FormEvent, type SetStateAction, useId, useState } from 'react';
import { BUDGET_FIELD, BUDGET_NAMES, fromField, toField } from './goal-format.ts';
import type { CreateGoalInput, Goal, GoalBudgets, Verify } from './goal-types.ts';

type CriterionDraft = { key: number; description: string; check: string };

/** What the form sends: a new goal's input, or a revision (the same fields). */
export type GoalDraft = Required<Pick<CreateGoalInput, 'objective' | 'criteria' | 'budgets'>> & {
  stallLimit?: number;
};

let nextKey = 1;
const draftOf = (description = '', verify?: Verify): CriterionDraft => ({
  key: nextKey++,
  description,
  check: verify?.kind === 'check' ? verify.toolId : '',
});

/**
 * Creates a goal, or revises one (`goal` given): the objective, its criteria (each confirmed by a person, or
 * checked by one of the conversation's tools), the budgets (empty: no limit) and the stall limit.
 */
export function GoalForm({
  goal,
  tools,
  onSubmit,
  onCancel,
}: {
  goal?: Pick<Goal, 'objective' | 'criteria' | 'budgets' | 'stallLimit'>;
  /** The ids of the conversation's tools, for "checked by tool". */
  tools: readonly string[];
  onSubmit: (draft: GoalDraft) => Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [objective, setObjective] = useState(goal?.objective ?? '');
  const [criteria, setCriteria] = useState<CriterionDraft[]>(
    goal ? goal.criteria.map((c) => draftOf(c.description, c.verify)) : [draftOf()],
  );
  const [budgets, setBudgets] = useState<Record<string, string>>(() =>
    Object.fromEntries(BUDGET_NAMES.map((name) => [name, toField(name, goal?.budgets[name])])),
  );
  const [stallLimit, setStallLimit] = useState(String(goal?.stallLimit ?? 3));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const filled = criteria.filter((c) => c.description.trim());
    if (!objective.trim()) return setError('Say what the goal is.');
    if (filled.length === 0) return setError('Give at least one criterion that says when it is done.');
    const limits: GoalBudgets = {};
    for (const name of BUDGET_NAMES) {
      const value = fromField(name, budgets[name] ?? '');
      if (value !== undefined) limits[name] = value;
    }
    const stalls = Number(stallLimit);
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit({
        objective: objective.trim(),
        criteria: filled.map((c) => ({
          description: c.description.trim(),
          verify: c.check ? { kind: 'check', toolId: c.check } : { kind: 'human' },
        })),
        budgets: limits,
        ...(Number.isInteger(stalls) && stalls >= 1 && stalls <= 20 && { stallLimit: stalls }),
      });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="goal-form" onSubmit={submit} aria-label={goal ? 'Revise the goal' : 'New goal'}>
      <label htmlFor={`${id}-objective`}>Objective</label>
      <textarea
        id={`${id}-objective`}
        value={objective}
        maxLength={4000}
        rows={3}
        placeholder="What should be achieved?"
        onChange={(e) => setObjective(e.target.value)}
      />
      <CriteriaFields criteria={criteria} setCriteria={setCriteria} tools={tools} />
      <fieldset>
        <legend>Budgets</legend>
        <p className="goal-hint">
          {goal
            ? 'Saved as a whole: an empty one has no limit.'
            : 'Empty: no limit of that kind. With none set, the server gives the goal its default budget.'}
        </p>
        <div className="goal-form-budgets">
          {BUDGET_NAMES.map((name) => (
            <label key={name}>
              <span>{BUDGET_FIELD[name]}</span>
              <input
                type="number"
                inputMode="decimal"
                min={0}
                step={name === 'cost' || name === 'wallMs' ? 'any' : 1}
                value={budgets[name] ?? ''}
                onChange={(e) => setBudgets((b) => ({ ...b, [name]: e.target.value }))}
              />
            </label>
          ))}
          <label>
            <span>Pause after prompts without progress</span>
            <input
              type="number"
              min={1}
              max={20}
              step={1}
              value={stallLimit}
              onChange={(e) => setStallLimit(e.target.value)}
            />
          </label>
        </div>
      </fieldset>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {goal ? 'Save changes' : 'Start the goal'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** The criteria: each one's description, and whether a person confirms it or which tool checks it. */
function CriteriaFields({
  criteria,
  setCriteria,
  tools,
}: {
  criteria: CriterionDraft[];
  setCriteria: Dispatch<SetStateAction<CriterionDraft[]>>;
  tools: readonly string[];
}) {
  const change = (key: number, patch: Partial<CriterionDraft>) =>
    setCriteria((all) => all.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  // A revised goal's tool stays offered even when the conversation no longer lists it.
  // The goal's own tools check nothing (the server refuses them as checks).
  const checks = tools.filter((tool) => !tool.startsWith('goal.'));
  const toolsOf = (current: string) => (current && !checks.includes(current) ? [current, ...checks] : checks);
  return (
    <fieldset>
      <legend>Done when</legend>
      <ol className="goal-form-criteria">
        {criteria.map((c, index) => (
          <li key={c.key}>
            <input
              aria-label={`Criterion ${index + 1}`}
              value={c.description}
              maxLength={1000}
              placeholder="e.g. the tests pass"
              onChange={(e) => change(c.key, { description: e.target.value })}
            />
            <div className="goal-form-verify">
              <select
                aria-label={`How criterion ${index + 1} is verified`}
                value={c.check}
                onChange={(e) => change(c.key, { check: e.target.value })}
              >
                <option value="">Confirmed by a person</option>
                {toolsOf(c.check).map((tool) => (
                  <option key={tool} value={tool}>
                    Checked by tool {tool}
                  </option>
                ))}
              </select>
              {criteria.length > 1 && (
                <button
                  type="button"
                  className="icon"
                  aria-label={`Remove criterion ${index + 1}`}
                  onClick={() => setCriteria((all) => all.filter((x) => x.key !== c.key))}
                >
                  ×
                </button>
              )}
            </div>
          </li>
        ))}
      </ol>
      {criteria.length < 20 && (
        <button type="button" onClick={() => setCriteria((all) => [...all, draftOf()])}>
          Add a criterion
        </button>
      )}
    </fieldset>
  );
}
