/**
 * The budgets a prompt pauses at, and the user may raise to continue (`platform.resume(id, { choice:
 * 'continue', budgets })`). The wall time is not one of them: it ends the prompt (it aborts what runs), and
 * `maxConcurrentTools` is a cap, not an amount spent.
 */
export const RAISABLE_BUDGETS = [
  'maxRounds',
  'maxToolCalls',
  'maxTokens',
  'maxInputTokens',
  'maxOutputTokens',
  'maxCost',
  'maxConsecutiveToolErrors',
] as const;
export type RaisableBudget = (typeof RAISABLE_BUDGETS)[number];

/** Larger limits the user gave to continue past a budget pause. */
export type BudgetRaise = Partial<Record<RaisableBudget, number>>;
