import type { PauseOutput, ToolOutput } from '../model/outputs.ts';
import type { Prompt, StopReason } from '../model/prompt.ts';
import { budgetsOf, type ReachedBudget, reachedBudget } from './budgets.ts';
import { OutputTally } from './output-tally.ts';
import type { Budgets } from './runtime.ts';

/** What the loop does next. */
export type LoopStep =
  /** A call waits for approval, or a pause for the user's decision: the prompt waits. */
  | { kind: 'pause'; pending: ToolOutput | PauseOutput }
  /** The prompt ends `completed`: the user chose to stop at a pause. */
  | { kind: 'end'; stop: StopReason }
  /** A budget is reached: the prompt pauses for the user to continue with a larger one, or stop. */
  | { kind: 'budget'; reached: ReachedBudget }
  /** Calls without a result (deferred behind an approval, or cut off by a crash) are processed first. */
  | { kind: 'calls'; open: ToolOutput[] }
  /** The next round: its boundary checks, then a model call. */
  | { kind: 'model' };

/** The most common step, made once. */
const MODEL: LoopStep = Object.freeze({ kind: 'model' });

/**
 * The next step of a prompt's loop, from its record alone (and the platform's budgets): the same record
 * always gives the same step, so a loop resumed in any process goes on as it would have. Pure: it reads and
 * changes nothing. `tally`: the record's counts over `prompt.output` (see OutputTally), when the caller keeps
 * them; counted here otherwise.
 */
export function planStep(
  prompt: Prompt,
  defaults: Budgets,
  tally: OutputTally = OutputTally.of(prompt.output),
): LoopStep {
  // Most rounds: nothing open, pending or paused, so no output need be looked at, and no budget was raised.
  if (tally.plain) {
    const reached = reachedBudget(prompt, defaults, tally.failures);
    return reached ? { kind: 'budget', reached } : MODEL;
  }
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
  // The budgets raised at the prompt's budget pauses are in its record, so any process reads the same ones.
  const reached = reachedBudget(prompt, budgetsOf(prompt, defaults));
  return reached ? { kind: 'budget', reached } : MODEL;
}
