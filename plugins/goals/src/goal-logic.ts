import type {
  Criterion,
  CriterionInput,
  Goal,
  GoalBudgets,
  GoalUsage,
  ProgressEntry,
  StoredGoal,
} from './types.ts';

/** Progress entries kept in the goal (the record keeps every checkpoint). */
export const PROGRESS_KEPT = 50;
/** Prompt ids remembered as counted. */
const ACCOUNTED_KEPT = 32;
export const MAX_SUMMARY = 2_000;

export const emptyUsage = (): GoalUsage => ({
  modelCalls: 0,
  totalTokens: 0,
  cost: 0,
  prompts: 0,
  wallMs: 0,
});

export const bound = (text: string, max = MAX_SUMMARY): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** The goal as the API gives it: without the plugin's internals, with the record's version. */
export function publicGoal(stored: StoredGoal, version: number): Goal {
  const { internal: _internal, ...goal } = stored;
  return { ...goal, version };
}

/** `goal` with `entries` added to its progress (the newest 50 kept). */
export function withProgress(goal: StoredGoal, ...entries: ProgressEntry[]): StoredGoal {
  if (entries.length === 0) return goal;
  const progress = [...goal.progress, ...entries].slice(-PROGRESS_KEPT);
  return {
    ...goal,
    progress,
    internal: { ...goal.internal, entries: goal.internal.entries + entries.length },
  };
}

/** The progress entries not yet in a checkpoint output (at most the 50 kept). */
export function unrecorded(goal: StoredGoal): ProgressEntry[] {
  const count = Math.min(goal.internal.entries - goal.internal.checkpointed, goal.progress.length);
  return count > 0 ? goal.progress.slice(-count) : [];
}

export const markRecorded = (goal: StoredGoal): StoredGoal => ({
  ...goal,
  internal: { ...goal.internal, checkpointed: goal.internal.entries },
});

export const accounted = (goal: StoredGoal, promptId: string): boolean =>
  goal.internal.accounted.includes(promptId);

export const withAccounted = (goal: StoredGoal, promptId: string): StoredGoal => ({
  ...goal,
  internal: { ...goal.internal, accounted: [...goal.internal.accounted, promptId].slice(-ACCOUNTED_KEPT) },
});

export const missingCriteria = (goal: Pick<Goal, 'criteria'>): Criterion[] =>
  goal.criteria.filter((criterion) => !criterion.evidence);

export const allMet = (goal: Pick<Goal, 'criteria'>): boolean => missingCriteria(goal).length === 0;

const BUDGET_NAMES: Record<keyof GoalBudgets, string> = {
  modelCalls: 'model calls',
  totalTokens: 'tokens',
  cost: 'cost',
  prompts: 'prompts',
  wallMs: 'wall time (ms)',
};

/** The first budget `used` has reached, described, or undefined. */
export function budgetReached(budgets: GoalBudgets, used: GoalUsage): string | undefined {
  for (const name of Object.keys(BUDGET_NAMES) as (keyof GoalBudgets)[]) {
    const limit = budgets[name];
    if (limit !== undefined && used[name] >= limit) {
      return `The goal's budget of ${BUDGET_NAMES[name]} is used up: ${round(used[name])} of ${limit}.`;
    }
  }
  return undefined;
}

const round = (n: number) => (Number.isInteger(n) ? n : Number(n.toFixed(4)));

export const sameVerify = (a: Criterion['verify'], b: Criterion['verify']): boolean =>
  a.kind === b.kind && (a.kind === 'human' || (b.kind === 'check' && a.toolId === b.toolId));

/** Criteria from input, numbered c1, c2, ...; a criterion equal to an old one keeps its evidence. */
export function criteriaFrom(inputs: readonly CriterionInput[], old: readonly Criterion[] = []): Criterion[] {
  const unused = [...old];
  return inputs.map((input, index) => {
    const verify = input.verify ?? { kind: 'human' as const };
    const at = unused.findIndex((c) => c.description === input.description && sameVerify(c.verify, verify));
    const kept = at >= 0 ? unused.splice(at, 1)[0] : undefined;
    return {
      id: `c${index + 1}`,
      description: input.description,
      verify,
      ...(kept?.evidence && { evidence: kept.evidence }),
      ...(kept?.lastCheck && { lastCheck: kept.lastCheck }),
    };
  });
}

/** The tool ids that check some criterion of the goal. */
export const checkTools = (goal: Pick<Goal, 'criteria'>): Set<string> =>
  new Set(goal.criteria.flatMap((c) => (c.verify.kind === 'check' ? [c.verify.toolId] : [])));

/** Whether a check's successful output says it failed (`{ passed: false }`). */
export const saysFailed = (output: unknown): boolean =>
  typeof output === 'object' && output !== null && (output as { passed?: unknown }).passed === false;

export function asText(value: unknown): string {
  if (typeof value === 'string') return bound(value);
  try {
    return bound(JSON.stringify(value) ?? String(value));
  } catch {
    return bound(String(value));
  }
}
