import { TesseraError } from '../errors.ts';
import { type BudgetRaise, RAISABLE_BUDGETS, type RaisableBudget } from '../model/budgets.ts';
import type { NewOutput, PauseOutput, PromptOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import type { Budgets } from './runtime.ts';
import { isFailure } from './tool-failures.ts';

/** A budget the prompt reached: which, its limit then, and what the prompt had used. */
export type ReachedBudget = { name: RaisableBudget; limit: number; used: number };

const RAISABLE: ReadonlySet<string> = new Set(RAISABLE_BUDGETS);
/** Budgets counted in whole units (a cost is not). */
const WHOLE: ReadonlySet<string> = new Set(RAISABLE_BUDGETS.filter((name) => name !== 'maxCost'));

/** The prompt's budgets: the platform's, with the raises the user gave at its budget pauses (later ones win). */
export function budgetsOf(prompt: Prompt, defaults: Budgets): Budgets {
  let budgets = defaults;
  for (const output of prompt.output) {
    if (output.type !== 'pause' || output.decision !== 'continue' || !output.raised) continue;
    if (budgets === defaults) budgets = { ...defaults };
    for (const name of RAISABLE_BUDGETS) {
      const value = Object.hasOwn(output.raised, name) ? output.raised[name] : undefined;
      if (typeof value === 'number' && value > 0) budgets[name] = value;
    }
  }
  return budgets;
}

/** What the prompt has used of each budget; `undefined` for a cost its provider never reported. */
const USED: Record<RaisableBudget, (prompt: Prompt) => number | undefined> = {
  maxRounds: (prompt) => prompt.usage.modelCalls,
  maxToolCalls: (prompt) => startedCalls(prompt.output),
  maxTokens: (prompt) => prompt.usage.totalTokens,
  maxInputTokens: (prompt) => prompt.usage.inputTokens,
  maxOutputTokens: (prompt) => prompt.usage.outputTokens,
  maxCost: (prompt) => prompt.usage.cost,
  maxConsecutiveToolErrors: (prompt) => consecutiveToolErrors(prompt.output),
};

/**
 * The first budget (other than the tool calls', checked as calls start) the prompt has reached, checked
 * before each model call. A provider that reports no cost leaves `maxCost` unchecked. `failures`: how many of
 * the prompt's results count as failures at all (see OutputTally), when the caller keeps that count: with
 * none, none are in a row, and no output is read.
 */
export function reachedBudget(
  prompt: Prompt,
  budgets: Budgets,
  failures?: number,
): ReachedBudget | undefined {
  for (const name of RAISABLE_BUDGETS) {
    if (name === 'maxToolCalls') continue;
    const used = name === 'maxConsecutiveToolErrors' && failures === 0 ? 0 : USED[name](prompt);
    if (used !== undefined && used >= budgets[name]) return { name, limit: budgets[name], used };
  }
  return undefined;
}

export function startedCalls(outputs: readonly PromptOutput[]): number {
  let started = 0;
  for (const output of outputs) if (output.type === 'tool' && output.startedAt) started++;
  return started;
}

/** Failed tool calls since the last success, newest first (decisions such as a rejection are passed over). */
function consecutiveToolErrors(outputs: readonly PromptOutput[]): number {
  let failed = 0;
  for (let i = outputs.length - 1; i >= 0; i--) {
    const output = outputs[i]!;
    if (output.type !== 'tool' || !output.result || output.result.type === 'pending') continue;
    if (output.result.type === 'success') break;
    if (isFailure(output.result)) failed++;
  }
  return failed;
}

const WHAT: Record<RaisableBudget, string> = {
  maxRounds: 'model calls',
  maxToolCalls: 'tool calls',
  maxTokens: 'tokens',
  maxInputTokens: 'input tokens',
  maxOutputTokens: 'output tokens',
  maxCost: 'cost',
  maxConsecutiveToolErrors: 'tool calls failing in a row',
};

/** The pause a reached budget records: the prompt waits for the user to continue with a larger one, or stop. */
export function budgetPause(reached: ReachedBudget): NewOutput<PauseOutput> {
  const { name, limit, used } = reached;
  const reason =
    name === 'maxConsecutiveToolErrors'
      ? `${used} tool calls failed in a row (the limit is ${limit}).`
      : `This prompt reached its limit of ${limit} ${WHAT[name]} (used: ${used}).`;
  return {
    type: 'pause',
    source: 'budget',
    budget: reached,
    reason: `${reason} Continue with a larger ${name}, or stop?`,
  };
}

/**
 * Checks the budgets a user raises to continue past `pause`, from hostile input: only at a budget pause and
 * with `continue`, known names only, positive finite numbers (whole where counted) larger than what the
 * prompt has used, and the budget that was reached among them. Returns the raise to record.
 */
export function checkRaise(
  prompt: Prompt,
  pause: PauseOutput,
  choice: string,
  raise: unknown,
): BudgetRaise | undefined {
  const reached = pause.source === 'budget' ? pause.budget : undefined;
  if (raise === undefined) {
    if (reached && choice === 'continue') {
      throw invalid(
        `Pause ${pause.id} is at the ${reached.name} budget: continue with a larger one (budgets: { ${reached.name}: … }), or stop.`,
      );
    }
    return undefined;
  }
  if (!reached) throw invalid(`Budgets are raised only at a budget pause; ${pause.id} is not one.`);
  if (choice !== 'continue') throw invalid('Budgets are raised only to continue.');
  if (!raise || typeof raise !== 'object' || Array.isArray(raise)) {
    throw invalid('budgets is an object of budget names and larger limits.');
  }
  const checked: BudgetRaise = {};
  for (const [name, value] of Object.entries(raise)) {
    if (!RAISABLE.has(name)) {
      throw invalid(`Unknown budget '${name.slice(0, 64)}': one of ${RAISABLE_BUDGETS.join(', ')}.`);
    }
    const budget = name as RaisableBudget;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw invalid(`${budget} is a positive finite number.`);
    }
    if (WHOLE.has(budget) && !Number.isInteger(value)) throw invalid(`${budget} is a whole number.`);
    const used = USED[budget](prompt);
    if (used !== undefined && value <= used) {
      throw invalid(`${budget} must be larger than what this prompt has used (${used}).`);
    }
    checked[budget] = value;
  }
  if (checked[reached.name as RaisableBudget] === undefined) {
    throw invalid(`Continuing past the ${reached.name} budget needs a larger ${reached.name}.`);
  }
  return checked;
}

const invalid = (message: string) => new TesseraError('invalid_input', message);
