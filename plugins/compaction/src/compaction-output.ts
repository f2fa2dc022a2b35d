import { defineOutput, ModelCallFacts, type OutputOf } from '@tessera/core';
import { z } from 'zod';

/**
 * The older prompts of the conversation summarized by the model, recorded on the prompt that needed the room
 * (before its first model call). From then on the model reads `summary` in place of the prompts up to and
 * including `through`; the record keeps every one of them. Without `summary` the summary call failed
 * (`error`): this prompt then leaves those prompts out instead. Skipped by the projection: the summary is
 * sent at the start of the history (see `compactedHistory`), not where it was recorded.
 */
export const compactionOutput = defineOutput({
  type: 'compaction',
  fields: {
    /** The id of the last prompt the summary covers (earlier ones are covered too). */
    through: z.string(),
    /** How many prompts it covers. */
    prompts: z.number().int().nonnegative(),
    summary: z.string().optional(),
    /** Why there is no summary: the summary call's error. */
    error: z.string().optional(),
    /** The context's size before, and the limit that set it off. */
    tokensBefore: z.number().nonnegative(),
    threshold: z.number().nonnegative(),
    /** The summary call's facts (times, usage): not in the prompt's usage, which is its own model calls'. */
    modelCall: ModelCallFacts.optional(),
  },
  project: 'skip',
});

export type CompactionOutput = OutputOf<typeof compactionOutput>;

declare module '@tessera/core' {
  interface PromptOutputTypes {
    compaction: CompactionOutput;
  }
}
