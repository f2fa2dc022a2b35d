import {
  type ModelCallFacts,
  type ModelMessage,
  type Prompt,
  type PromptOutput,
  userMessage,
} from '@tessera/core';

/**
 * A `compaction` output as the record holds it: the model read `summary` in place of the prompts up to and
 * including `through` (none: the summary call failed, `error`). Read by its shape, so that a report needs
 * nothing but the record, whichever package recorded it.
 */
export type RecordedCompaction = {
  type: 'compaction';
  id: string;
  through: string;
  prompts: number;
  summary?: string;
  error?: string;
  tokensBefore: number;
  threshold: number;
  modelCall?: ModelCallFacts;
};

/** The output as a compaction, when it is one. */
export const asCompaction = (output: PromptOutput): RecordedCompaction | undefined =>
  (output as { type: string }).type === 'compaction' ? (output as unknown as RecordedCompaction) : undefined;

/** The history as the model read it after compactions: the latest summary, then the prompts after it. */
export type CompactedHistory = {
  prompts: readonly Prompt[];
  summary?: ModelMessage;
  compaction?: RecordedCompaction;
};

/** The latest compaction with a summary, in the current prompt or the history, newest first. */
function latestSummary(history: readonly Prompt[], current?: Prompt): RecordedCompaction | undefined {
  const inPrompt = (prompt: Prompt) => {
    for (let o = prompt.output.length - 1; o >= 0; o--) {
      const compaction = asCompaction(prompt.output[o]!);
      if (compaction?.summary) return compaction;
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

/** The prompts after those the latest summary covers, with the summary first (as the model reads it). */
export function compactedHistory(history: readonly Prompt[], current?: Prompt): CompactedHistory {
  const compaction = latestSummary(history, current);
  if (!compaction) return { prompts: history };
  const cut = history.findIndex((prompt) => prompt.id === compaction.through);
  return {
    prompts: cut < 0 ? history : history.slice(cut + 1),
    summary: userMessage(
      `[Summary of the earlier conversation (${compaction.prompts} prompts), written to save room; the details are in the record]\n${compaction.summary}`,
    ),
    compaction,
  };
}
