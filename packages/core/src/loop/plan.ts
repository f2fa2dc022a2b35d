import type { PauseOutput, ToolOutput } from '../model/outputs.ts';
import type { Prompt, StopReason } from '../model/prompt.ts';
import type { Budgets } from './runtime.ts';

/** What the loop does next. */
export type LoopStep =
  /** A call waits for approval, or a pause for the user's decision: the prompt waits. */
  | { kind: 'pause'; pending: ToolOutput | PauseOutput }
  /** The prompt ends `completed`: a budget is reached, or the user chose to stop at a pause. */
  | { kind: 'end'; stop: StopReason }
  /** Calls without a result (deferred behind an approval, or cut off by a crash) are processed first. */
  | { kind: 'calls'; open: ToolOutput[] }
  /** The next round: its boundary checks, then a model call. */
  | { kind: 'model' };

/** The most common step, made once. */
const MODEL: LoopStep = Object.freeze({ kind: 'model' });

/**
 * The next step of a prompt's loop, from its record alone (and whether the tool budget was reached in this
 * run): the same record always gives the same step, so a loop resumed in any process goes on as it would
 * have. Pure: it reads and changes nothing.
 */
export function planStep(prompt: Prompt, budgets: Budgets, toolBudgetReached: boolean): LoopStep {
  let open: ToolOutput[] | undefined;
  let stopped: PauseOutput | undefined;
  for (const output of prompt.output) {
    if (output.type === 'tool') {
      if (output.result?.type === 'pending') return { kind: 'pause', pending: output };
      if (!output.result) {
        open ??= [];
        open.push(output);
      }
    } else if (output.type === 'pause') {
      if (!output.decision) return { kind: 'pause', pending: output };
      stopped = output.decision === 'stop' ? output : undefined;
    }
  }
  if (stopped)
    return {
      kind: 'end',
      stop: { code: 'stopped_by_user', message: `Stopped by the user: ${stopped.reason}` },
    };
  if (open) return { kind: 'calls', open };
  const stop = budgetStop(prompt, budgets, toolBudgetReached);
  return stop ? { kind: 'end', stop } : MODEL;
}

function budgetStop(prompt: Prompt, budgets: Budgets, toolBudgetReached: boolean): StopReason | undefined {
  const { usage } = prompt;
  if (toolBudgetReached) {
    return {
      code: 'max_tool_calls',
      message: `Stopped: this prompt reached its limit of ${budgets.maxToolCalls} tool calls.`,
    };
  }
  if (usage.modelCalls >= budgets.maxRounds) {
    return {
      code: 'max_rounds',
      message: `Stopped: this prompt reached its limit of ${budgets.maxRounds} model calls without a final answer.`,
    };
  }
  if (usage.totalTokens >= budgets.maxTokens) {
    return {
      code: 'max_tokens',
      message: `Stopped: this prompt used ${usage.totalTokens} tokens, over its limit of ${budgets.maxTokens}.`,
    };
  }
  return undefined;
}
