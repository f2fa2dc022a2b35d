import type { components } from '../api-types.ts';

export type ReachedBudget = components['schemas']['ReachedBudget'];
export type BudgetRaise = components['schemas']['BudgetRaise'];

/** What each budget counts, for a sentence ("50 model calls"). */
const UNITS: Record<string, string> = {
  maxRounds: 'model calls',
  maxToolCalls: 'tool calls',
  maxTokens: 'tokens',
  maxInputTokens: 'input tokens',
  maxOutputTokens: 'output tokens',
  maxConsecutiveToolErrors: 'failed tool calls in a row',
};

/** A budget's limit in words: "50 model calls", or a cost as a plain amount. */
export function budgetAmount(name: string, limit: number): string {
  // Own keys only: the name comes from a stored record (a `constructor` must read as no unit).
  const unit = Object.hasOwn(UNITS, name) ? UNITS[name] : undefined;
  return unit ? `${limit.toLocaleString('en')} ${unit}` : `a cost of ${limit}`;
}

/**
 * The larger limit the pause card proposes: double what was reached (or used, when the prompt went past it),
 * whole for counts, and always more than what was used, which the server requires.
 */
export function proposedLimit({ name, limit, used }: ReachedBudget): number {
  const doubled = Math.max(limit, used) * 2;
  if (name === 'maxCost') return Math.max(Math.ceil(doubled * 100) / 100, used + 0.01);
  return Math.max(Math.ceil(doubled), Math.floor(used) + 1);
}

/** The pause's budget, if it is a budget pause whose `budget` has the expected shape (from the server). */
export function reachedBudgetOf(output: Record<string, unknown>): ReachedBudget | undefined {
  const budget = output.budget as Partial<ReachedBudget> | undefined;
  if (output.source !== 'budget' || !budget || typeof budget.name !== 'string') return undefined;
  if (typeof budget.limit !== 'number' || typeof budget.used !== 'number') return undefined;
  return { name: budget.name, limit: budget.limit, used: budget.used };
}
