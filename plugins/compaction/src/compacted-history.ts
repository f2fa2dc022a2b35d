import { type ModelMessage, type Prompt, userMessage } from '@tessera/core';
import type { CompactionOutput } from './compaction-output.ts';

/** The history as the model reads it after compactions: what comes first, then the prompts after it. */
export type CompactedHistory = {
  /** The prompts after the ones the latest compaction covers (all of them without one). */
  prompts: readonly Prompt[];
  /** The summary as the first message, when there is one. */
  before: ModelMessage[];
  /** The latest summary, which `before` holds. */
  summary?: CompactionOutput;
};

const isCompaction = (output: Prompt['output'][number]): output is CompactionOutput =>
  output.type === 'compaction';

/** The latest compaction of `prompt` that `accept`s, newest first. */
function latestIn(prompt: Prompt, accept: (output: CompactionOutput) => boolean) {
  for (let o = prompt.output.length - 1; o >= 0; o--) {
    const output = prompt.output[o]!;
    if (isCompaction(output) && accept(output)) return output;
  }
  return undefined;
}

/** The latest compaction with a summary, in the current prompt or the history, newest first. */
export function latestSummary(history: readonly Prompt[], current?: Prompt): CompactionOutput | undefined {
  const hasSummary = (output: CompactionOutput) => output.summary !== undefined;
  const own = current && latestIn(current, hasSummary);
  if (own) return own;
  for (let p = history.length - 1; p >= 0; p--) {
    const found = latestIn(history[p]!, hasSummary);
    if (found) return found;
  }
  return undefined;
}

export const summaryMessage = (compaction: CompactionOutput): ModelMessage =>
  userMessage(
    `[Summary of the earlier conversation (${compaction.prompts} prompts), written to save room; the details are in the record]\n${compaction.summary}`,
  );

/**
 * The history the model reads: the prompts after those the latest summary covers, with the summary first.
 * A summary call that failed in the current prompt leaves out the prompts it was to cover (only in that
 * prompt: the next one tries again). The cut is between whole prompts, so a call is never separated from
 * its result.
 */
export function compactedHistory(history: readonly Prompt[], current?: Prompt): CompactedHistory {
  const summary = latestSummary(history, current);
  const failed = current && latestIn(current, (output) => output.summary === undefined);
  const after = (through: string | undefined) => {
    const cut = through === undefined ? -1 : history.findIndex((prompt) => prompt.id === through);
    return cut < 0 ? history : history.slice(cut + 1);
  };
  // A failure recorded after the summary was read covers more than it; one before it is superseded.
  const failedLater =
    failed && (!summary || current.output.indexOf(failed) > current.output.indexOf(summary));
  const prompts = after(failedLater ? failed.through : summary?.through);
  return {
    prompts,
    before: summary ? [summaryMessage(summary)] : [],
    ...(summary && { summary }),
  };
}
