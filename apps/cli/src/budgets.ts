/** A budget a prompt reached (a pause with `source: 'budget'`): which, its limit, and what was used. */
export type ReachedBudget = { name: string; limit: number; used: number };

/**
 * `--budget name=limit` continuing past a budget with double the limit reached (or what was used, when more),
 * always more than was used, as the server requires.
 */
export function budgetOption({ name, limit, used }: ReachedBudget): string {
  const doubled = Math.max(limit, used) * 2;
  // A cost is money: to the cent. Every other budget is a count.
  const larger =
    name === 'maxCost' || name === 'cost'
      ? Math.max(Math.ceil(doubled * 100) / 100, used + 0.01)
      : Math.max(Math.ceil(doubled), Math.floor(used) + 1);
  return `--budget ${name}=${larger}`;
}

/**
 * `--budget name=limit` options (repeatable) as the budgets to continue with; the server checks the names
 * and limits (a 400 says what it refuses). Only the form is checked here, before anything is sent.
 */
export function parseBudgetOptions(values: readonly string[] = []): Record<string, number> | undefined {
  if (values.length === 0) return undefined;
  const budgets: Record<string, number> = {};
  for (const value of values) {
    const match = /^([A-Za-z]{1,64})=([0-9]+(?:\.[0-9]+)?)$/.exec(value);
    if (!match) throw new Error(`--budget takes name=limit, e.g. --budget maxRounds=50 (got '${value}').`);
    budgets[match[1]!] = Number(match[2]);
  }
  return budgets;
}
