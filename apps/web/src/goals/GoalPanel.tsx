import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { type GoalDraft, GoalForm } from './GoalForm.tsx';
import { GoalProgressItem } from './GoalProgressItem.tsx';
import {
  amountOf,
  BUDGET_FIELD,
  BUDGET_LABEL,
  budgetRows,
  fromField,
  isLive,
  labelOf,
  metCount,
  PAUSE_LABEL,
  raisedBudgets,
  STATE_LABEL,
  timeOf,
  toField,
} from './goal-format.ts';
import type { Criterion, Goal, GoalApi, GoalBudgets } from './goal-types.ts';
import type { GoalHandle } from './use-goal.ts';
import './goals.css';

/** What the goal's buttons do (each resolves with the goal as the server now has it, or throws its error). */
export type GoalActions = {
  pause: () => Promise<void>;
  resume: (budgets?: GoalBudgets) => Promise<void>;
  stop: () => Promise<void>;
  confirm: (criterionId: string, note?: string) => Promise<void>;
  revise: (draft: GoalDraft) => Promise<void>;
};

/** The conversation's goal in the side panel, with its actions; or a form to set one. */
export function GoalPanel({
  api,
  conversationId,
  handle,
  onShowCall,
}: {
  api: GoalApi & { tools: (conversationId: string) => Promise<{ id: string }[]> };
  conversationId: string;
  /** The goal, loaded by the conversation (useGoal): the bar above the record shows it too. */
  handle: GoalHandle;
  /** Brings the record's call waiting for a decision into view (a goal paused for approval). */
  onShowCall?: (promptId?: string) => void;
}) {
  const { goal, loaded, error } = handle;
  const [creating, setCreating] = useState(false);
  const [tools, setTools] = useState<string[]>([]);
  const withTools = useCallback(() => {
    void api.tools(conversationId).then(
      (items) => setTools(items.map((t) => t.id)),
      () => {},
    );
  }, [api, conversationId]);
  const apply = async (next: Promise<Goal>) => handle.set(await next);
  const actions: GoalActions = {
    pause: () => apply(api.pauseGoal(conversationId)),
    resume: (budgets) => apply(api.resumeGoal(conversationId, budgets)),
    stop: () => apply(api.stopGoal(conversationId)),
    confirm: (criterionId, note) => apply(api.confirmCriterion(conversationId, criterionId, note)),
    revise: (draft) => apply(api.reviseGoal(conversationId, draft)),
  };
  const startForm = () => {
    withTools();
    setCreating(true);
  };
  return (
    <section className="goal-panel" aria-labelledby={`goal-${conversationId}`}>
      <h2 id={`goal-${conversationId}`}>Goal</h2>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      {creating ? (
        <GoalForm
          tools={tools}
          onCancel={() => setCreating(false)}
          onSubmit={async (draft) => {
            await apply(api.createGoal(conversationId, draft));
            setCreating(false);
          }}
        />
      ) : goal ? (
        <GoalView
          goal={goal}
          actions={actions}
          tools={tools}
          onRevising={withTools}
          onNewGoal={startForm}
          onShowCall={onShowCall}
        />
      ) : (
        loaded && (
          <>
            <p className="empty">
              No goal. Set one and the assistant works toward it prompt after prompt, until its criteria are
              met.
            </p>
            <div className="row">
              <button type="button" className="primary" onClick={startForm}>
                Set a goal
              </button>
            </div>
          </>
        )
      )}
    </section>
  );
}

/** A goal: its state and why, the criteria with their evidence, the plan, the budgets, the log, and its actions. */
export function GoalView({
  goal,
  actions,
  tools = [],
  onRevising,
  onNewGoal,
  onShowCall,
}: {
  goal: Goal;
  actions: GoalActions;
  tools?: readonly string[];
  /** The revise form opens (load what it offers). */
  onRevising?: () => void;
  onNewGoal?: () => void;
  onShowCall?: (promptId?: string) => void;
}) {
  const [revising, setRevising] = useState(false);
  const live = isLive(goal.state);
  useEffect(() => {
    if (!live) setRevising(false);
  }, [live]);
  if (revising)
    return (
      <GoalForm
        goal={goal}
        tools={tools}
        onCancel={() => setRevising(false)}
        onSubmit={async (draft) => {
          await actions.revise(draft);
          setRevising(false);
        }}
      />
    );
  const rows = budgetRows(goal.budgets, goal.used);
  return (
    <div className={`goal goal-${goal.state}`}>
      <div className="goal-head">
        <span className={`goal-state goal-state-${goal.state}`}>{labelOf(STATE_LABEL, goal.state)}</span>
        <span className="goal-count">
          {metCount(goal)} of {goal.criteria.length} criteria met
        </span>
      </div>
      <p className="goal-objective">{goal.objective}</p>
      <GoalStatus goal={goal} onShowCall={onShowCall} />
      <h3>Criteria</h3>
      <ul className="goal-criteria" aria-label="Criteria">
        {goal.criteria.map((criterion) => (
          <CriterionItem
            key={criterion.id}
            criterion={criterion}
            onConfirm={live ? (note) => actions.confirm(criterion.id, note) : undefined}
          />
        ))}
      </ul>
      {goal.plan && (
        <>
          <h3>Plan</h3>
          <p className="goal-plan">{goal.plan}</p>
        </>
      )}
      {rows.length > 0 && (
        <>
          <h3>Budget</h3>
          <ul className="goal-budgets" aria-label="Budget">
            {rows.map((row) => (
              <li key={row.name} className={row.over ? 'over' : undefined}>
                <div className="goal-budget-line">
                  <span>{BUDGET_LABEL[row.name]}</span>
                  <span>
                    {amountOf(row.name, row.used)} of {amountOf(row.name, row.limit)} ·{' '}
                    {row.over ? 'none left' : `${amountOf(row.name, row.left)} left`}
                  </span>
                </div>
                <meter
                  min={0}
                  max={row.limit}
                  value={Math.min(row.used, row.limit)}
                  high={row.limit * 0.8}
                  optimum={0}
                  aria-label={`${BUDGET_LABEL[row.name]} used`}
                />
              </li>
            ))}
          </ul>
        </>
      )}
      <GoalButtons
        goal={goal}
        actions={actions}
        onRevise={() => {
          onRevising?.();
          setRevising(true);
        }}
        onNewGoal={onNewGoal}
      />
      <h3>Progress</h3>
      {goal.progress.length === 0 ? (
        <p className="empty">Nothing yet.</p>
      ) : (
        <ol className="goal-log" aria-label="Progress, newest first">
          {goal.progress
            .map((entry, index) => ({ entry, index }))
            .reverse()
            .map(({ entry, index }) => (
              <GoalProgressItem key={index} entry={entry} />
            ))}
        </ol>
      )}
    </div>
  );
}

/** Why it is where it is: paused (and for approval, the call to decide), or how it ended. */
function GoalStatus({ goal, onShowCall }: { goal: Goal; onShowCall?: (promptId?: string) => void }) {
  if (goal.state === 'paused' && goal.pause) {
    const { kind, reason, promptId, wakeAt } = goal.pause;
    return (
      <div className={`goal-status goal-pause goal-pause-${kind}`} role="status">
        <strong>{labelOf(PAUSE_LABEL, kind)}</strong>
        <p>{reason}</p>
        {kind === 'approval' && (
          <>
            <p>It goes on by itself once you decide the call in the conversation.</p>
            {onShowCall && (
              <button type="button" onClick={() => onShowCall(promptId)}>
                Show the call to decide
              </button>
            )}
          </>
        )}
        {wakeAt && <p>Until {timeOf(wakeAt)}.</p>}
      </div>
    );
  }
  if (goal.state === 'active') return null;
  return (
    <div className={`goal-status goal-ended goal-ended-${goal.state}`} role="status">
      <strong>{labelOf(STATE_LABEL, goal.state)}</strong>
      {goal.endReason && <p>{goal.endReason}</p>}
    </div>
  );
}

/** A criterion, met (with its evidence) or not (with its last failed check), and "Confirm" for a person's. */
function CriterionItem({
  criterion,
  onConfirm,
}: {
  criterion: Criterion;
  onConfirm?: (note?: string) => Promise<void>;
}) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const { evidence, lastCheck, verify } = criterion;
  const met = evidence !== undefined;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!onConfirm) return;
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm(note.trim() || undefined);
      setConfirming(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className={`goal-criterion ${met ? 'met' : 'unmet'}`}>
      <div className="goal-criterion-line">
        <span className="goal-mark" aria-hidden="true">
          {met ? '✓' : '○'}
        </span>
        <span>
          <span className="visually-hidden">{met ? 'Met: ' : 'Not met: '}</span>
          {criterion.description}
        </span>
      </div>
      <span className="goal-verify">
        {verify.kind === 'check' ? (
          <>
            Checked by tool <code>{verify.toolId}</code>
          </>
        ) : (
          'Confirmed by a person'
        )}
      </span>
      {evidence ? (
        <div className="goal-evidence">
          <span className="goal-evidence-by">
            {evidence.by === 'human'
              ? `Confirmed${evidence.decidedBy ? ` by ${evidence.decidedBy}` : ''}`
              : 'Check passed'}{' '}
            <time dateTime={evidence.at}>{timeOf(evidence.at)}</time>
          </span>
          {evidence.summary && <p>{evidence.summary}</p>}
        </div>
      ) : lastCheck && !lastCheck.passed ? (
        <div className="goal-evidence goal-check-failed">
          <span className="goal-evidence-by">
            Last check failed <time dateTime={lastCheck.at}>{timeOf(lastCheck.at)}</time>
          </span>
          {lastCheck.summary && <p>{lastCheck.summary}</p>}
        </div>
      ) : null}
      {!met && onConfirm && verify.kind === 'human' && !confirming && (
        <div className="row">
          <button
            type="button"
            aria-label={`Confirm: ${criterion.description}`}
            onClick={() => setConfirming(true)}
          >
            Confirm
          </button>
        </div>
      )}
      {confirming && (
        <form className="goal-confirm" onSubmit={submit} aria-label={`Confirm: ${criterion.description}`}>
          <label htmlFor={`${id}-note`}>Note (optional)</label>
          <input id={`${id}-note`} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          {error && (
            <p role="alert" className="error-text">
              {error}
            </p>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              Confirm it is met
            </button>
            <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

/** The actions the state allows: pause, resume (past a budget: with larger ones), stop, revise; a new goal once ended. */
function GoalButtons({
  goal,
  actions,
  onRevise,
  onNewGoal,
}: {
  goal: Goal;
  actions: GoalActions;
  onRevise: () => void;
  onNewGoal?: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [raising, setRaising] = useState(false);
  const [error, setError] = useState<string>();
  const run = (action: () => Promise<void>) => async () => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      setStopping(false);
      setRaising(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const { state } = goal;
  return (
    <div className="goal-actions">
      {raising ? (
        <RaiseBudgets
          goal={goal}
          busy={busy}
          onCancel={() => setRaising(false)}
          onResume={(b) => run(() => actions.resume(b))()}
        />
      ) : stopping ? (
        <div className="goal-stop-confirm">
          <p>Stop the goal? It cannot be resumed.</p>
          <div className="row">
            <button type="button" className="danger" disabled={busy} onClick={run(actions.stop)}>
              Stop the goal
            </button>
            <button type="button" disabled={busy} onClick={() => setStopping(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <div className="row">
          {state === 'active' && (
            <button type="button" disabled={busy} onClick={run(actions.pause)}>
              Pause
            </button>
          )}
          {/* A pause for approval ends with the decision on the call, not here. */}
          {state === 'paused' && goal.pause?.kind !== 'approval' && (
            <button type="button" className="primary" disabled={busy} onClick={run(() => actions.resume())}>
              Resume
            </button>
          )}
          {state === 'budget_exhausted' && (
            <button type="button" className="primary" disabled={busy} onClick={() => setRaising(true)}>
              Resume with a larger budget
            </button>
          )}
          {isLive(state) && (
            <button type="button" disabled={busy} onClick={onRevise}>
              Revise
            </button>
          )}
          {isLive(state) && (
            <button type="button" className="danger" disabled={busy} onClick={() => setStopping(true)}>
              Stop
            </button>
          )}
          {!isLive(state) && onNewGoal && (
            <button type="button" onClick={onNewGoal}>
              New goal
            </button>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </div>
  );
}

/** A run-out goal's budgets to resume with: the ones it reached doubled, each editable. */
function RaiseBudgets({
  goal,
  busy,
  onResume,
  onCancel,
}: {
  goal: Goal;
  busy: boolean;
  onResume: (budgets: GoalBudgets) => void;
  onCancel: () => void;
}) {
  const [fields, setFields] = useState(() => {
    const raised = raisedBudgets(goal);
    return budgetRows(raised, goal.used).map((row) => ({
      name: row.name,
      text: toField(row.name, row.limit),
    }));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const budgets: GoalBudgets = {};
    for (const { name, text } of fields) {
      const value = fromField(name, text);
      if (value !== undefined) budgets[name] = value;
    }
    onResume(budgets);
  };
  return (
    <form className="goal-raise" onSubmit={submit} aria-label="Resume with a larger budget">
      <p>Each budget must be above what the goal used.</p>
      <div className="goal-form-budgets">
        {fields.map(({ name, text }) => (
          <label key={name}>
            <span>
              {BUDGET_FIELD[name]} (used {amountOf(name, goal.used[name])})
            </span>
            <input
              type="number"
              min={0}
              step={name === 'cost' || name === 'wallMs' ? 'any' : 1}
              value={text}
              onChange={(e) =>
                setFields((all) => all.map((f) => (f.name === name ? { ...f, text: e.target.value } : f)))
              }
            />
          </label>
        ))}
      </div>
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Resume
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
