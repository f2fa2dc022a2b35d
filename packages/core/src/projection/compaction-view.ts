import type { CompactionOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import { type ModelMessage, userMessage } from '../provider/messages.ts';

/** The history as the model reads it after compactions: the latest summary, then the prompts after it. */
export type CompactedHistory = {
  /** The prompts after the ones the summary covers (all of them without a summary). */
  prompts: readonly Prompt[];
  /** The summary as the first message, when there is one. */
  summary?: ModelMessage;
  /** The compaction it comes from. */
  compaction?: CompactionOutput;
};

/** The latest compaction with a summary, in the current prompt or the history, newest first. */
export function latestSummary(history: readonly Prompt[], current?: Prompt): CompactionOutput | undefined {
  const inPrompt = (prompt: Prompt) => {
    for (let o = prompt.output.length - 1; o >= 0; o--) {
      const output = prompt.output[o]!;
      if (output.type === 'compaction' && output.summary) return output;
    }
    return undefined;
  };
  const own = current && inPrompt(current);
  if (own) return own;
  for (let p = history.length - 1; p >= 0; p--) {
    const found = inPrompt(history[p]!);
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
 * The cut is between whole prompts, so a call is never separated from its result.
 */
export function compactedHistory(history: readonly Prompt[], current?: Prompt): CompactedHistory {
  const compaction = latestSummary(history, current);
  if (!compaction) return { prompts: history };
  const cut = history.findIndex((prompt) => prompt.id === compaction.through);
  return {
    prompts: cut < 0 ? history : history.slice(cut + 1),
    summary: summaryMessage(compaction),
    compaction,
  };
}
