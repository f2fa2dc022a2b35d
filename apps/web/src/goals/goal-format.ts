import type { Goal, GoalBudgets, GoalState, GoalUsage, PauseKind, ProgressKind } from './goal-types.ts';

/** The state in a few words (the badge). */
export const STATE_LABEL: Record<GoalState, string> = {
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
  stopped: 'Stopped',
  budget_exhausted: 'Out of budget',
};

/** Why a goal paused, as a lead-in to the plugin's reason. */
export const PAUSE_LABEL: Record<PauseKind, string> = {
  user: 'Paused by you',
  approval: 'Waiting for your approval',
  doom_loop: 'Paused: it was repeating itself',
  blocker: 'Paused: it is blocked',
  stall: 'Paused: no progress',
  waiting: 'Waiting',
};

/** A progress entry's kind, as the log's tag. */
export const PROGRESS_LABEL: Record<ProgressKind, string> = {
  plan: 'Plan',
  progress: 'Progress',
  evidence: 'Evidence',
  check_failed: 'Check failed',
  stall: 'No progress',
  paused: 'Paused',
  resumed: 'Resumed',
  revised: 'Revised',
  budget: 'Budget',
  completed: 'Completed',
  stopped: 'Stopped',
};

/** Read from the server: an unknown value shows as itself, never as `undefined`. */
export const labelOf = <K extends string>(labels: Record<K, string>, key: string): string =>
  Object.hasOwn(labels, key) ? labels[key as K] : key.replaceAll('_', ' ');

export const isLive = (state: GoalState) => state === 'active' || state === 'paused';

export type BudgetName = keyof GoalBudgets & keyof GoalUsage;
export const BUDGET_NAMES: BudgetName[] = ['modelCalls', 'totalTokens', 'cost', 'prompts', 'wallMs'];

/** Each budget's name, and how a form asks for it (wall time in minutes, the API's in ms). */
export const BUDGET_LABEL: Record<BudgetName, string> = {
  modelCalls: 'Model calls',
  totalTokens: 'Tokens',
  cost: 'Cost',
  prompts: 'Prompts',
  wallMs: 'Time',
};
export const BUDGET_FIELD: Record<BudgetName, string> = {
  modelCalls: 'Model calls',
  totalTokens: 'Tokens',
  cost: 'Cost (USD)',
  prompts: 'Prompts',
  wallMs: 'Time (minutes)',
};

const MINUTE = 60_000;

/** An amount of a budget in words: "12", "12,400", "$0.42", "3 min". */
export function amountOf(name: BudgetName, value: number): string {
  if (name === 'cost') return `$${value < 1 ? value.toFixed(value === 0 ? 0 : 3) : value.toFixed(2)}`;
  if (name === 'wallMs') {
    const minutes = value / MINUTE;
    return minutes < 1 ? `${Math.round(value / 1000)} s` : `${Math.round(minutes * 10) / 10} min`;
  }
  return Math.round(value).toLocaleString('en');
}

/** A budget's limit as the form shows it (minutes for time), and back. */
export const toField = (name: BudgetName, value: number | undefined) =>
  value === undefined ? '' : String(name === 'wallMs' ? Math.round((value / MINUTE) * 100) / 100 : value);
export const fromField = (name: BudgetName, text: string): number | undefined => {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) return undefined;
  if (name === 'wallMs') return Math.round(value * MINUTE);
  return name === 'cost' ? value : Math.ceil(value);
};

/** The budgets that have a limit, with what is used of each and what is left. */
export function budgetRows(budgets: GoalBudgets, used: GoalUsage) {
  return BUDGET_NAMES.flatMap((name) => {
    const limit = budgets[name];
    if (limit === undefined) return [];
    const spent = used[name] ?? 0;
    return [{ name, limit, used: spent, left: Math.max(0, limit - spent), over: spent >= limit }];
  });
}

/**
 * The budgets a run-out goal resumes with: each one it reached doubled (as a pause card's raise), whole for
 * counts and always above what was used, which the server requires; the others as they were.
 */
export function raisedBudgets(goal: Pick<Goal, 'budgets' | 'used'>): GoalBudgets {
  const raised: GoalBudgets = { ...goal.budgets };
  for (const { name, limit, used, over } of budgetRows(goal.budgets, goal.used)) {
    if (!over) continue;
    const doubled = Math.max(limit, used) * 2;
    raised[name] =
      name === 'cost'
        ? Math.max(Math.ceil(doubled * 100) / 100, used + 0.01)
        : Math.max(Math.ceil(doubled), Math.floor(used) + 1);
  }
  return raised;
}

/** A time in the log: "14:03" today, else with its date. */
export function timeOf(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === now.toDateString();
  return date.toLocaleString(
    undefined,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  );
}

/** Whether every criterion has its evidence. */
export const metCount = (goal: Pick<Goal, 'criteria'>) => goal.criteria.filter((c) => c.evidence).length;
