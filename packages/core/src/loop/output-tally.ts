import type { PromptOutput } from '../model/outputs.ts';
import { isFailure } from './tool-failures.ts';

/**
 * Counts over a prompt's outputs that the loop asks about every round (open calls, pending approvals,
 * pauses, started calls, failures), kept by its record as outputs are added, replaced and removed. Without them each
 * round scanned every output several times; with 1,000 prompts running at once, each output read is a cache
 * miss, and those scans were a large part of a round.
 */
export class OutputTally {
  /** Tool calls without a result (deferred, or cut off by a crash). */
  open = 0;
  /** Tool calls waiting for approval. */
  pending = 0;
  /** Tool calls started (what `maxToolCalls` counts). */
  started = 0;
  /** Results that count as failures (see `maxConsecutiveToolErrors`), in a row or not. */
  failures = 0;
  /** Pause outputs, decided or not (they may stop the prompt, or raise its budgets). */
  pauses = 0;

  static of(outputs: readonly PromptOutput[]): OutputTally {
    const tally = new OutputTally();
    for (const output of outputs) tally.count(output, 1);
    return tally;
  }

  /** Counts `output` in (`sign` 1) or out (-1). */
  count(output: PromptOutput, sign: 1 | -1): void {
    if (output.type === 'tool') {
      if (!output.result) this.open += sign;
      else if (output.result.type === 'pending') this.pending += sign;
      else if (isFailure(output.result)) this.failures += sign;
      if (output.startedAt) this.started += sign;
    } else if (output.type === 'pause') this.pauses += sign;
  }

  /** Whether the plain next round is all a record can plan: nothing open, pending or paused. */
  get plain(): boolean {
    return this.open === 0 && this.pending === 0 && this.pauses === 0;
  }
}
