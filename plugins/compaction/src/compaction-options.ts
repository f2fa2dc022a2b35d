import { z } from 'zod';

export const DEFAULT_CONTEXT_WINDOW = 128_000;

export const SUMMARY_INSTRUCTIONS = [
  'You are compacting a long conversation so that it can continue within the context window.',
  'Write a faithful summary of the conversation so far for the assistant that will continue it.',
  'Keep every fact the user stated (names, numbers, dates, preferences), every decision, what tools found',
  'and did, open questions and unfinished tasks. Leave out pleasantries. Write plain text, no preamble.',
].join(' ');

/** When and how a long conversation is summarized. */
export const CompactionOptions = z.object({
  /** Summarize when the context passes this fraction of the model's context window. */
  threshold: z.number().gt(0).max(1).default(0.8),
  /** Context windows in tokens by concrete model name (`models.normal`, `models.high`). */
  contextWindows: z.record(z.string().min(1), z.number().int().positive()).default({}),
  /** The context window of a model not in `contextWindows`. */
  contextWindow: z.number().int().positive().default(DEFAULT_CONTEXT_WINDOW),
  /**
   * Summarize past this many tokens at the latest, whatever the window: give it the platform's
   * `historyTokens`, so the model summarizes before core's history budget leaves prompts out.
   */
  maxTokens: z.number().int().positive().optional(),
  /** How many of the latest prompts stay whole after the summary. */
  keepRecent: z.number().int().min(0).default(2),
  /** The summary call's instructions, in place of `SUMMARY_INSTRUCTIONS`. */
  instructions: z.string().min(1).optional(),
});

export type CompactionOptions = z.output<typeof CompactionOptions>;

/** The token count past which `model`'s history is summarized. */
export function compactionThreshold(options: CompactionOptions, model: string): number {
  const window = options.contextWindows[model] ?? options.contextWindow;
  const threshold = Math.floor(window * options.threshold);
  return options.maxTokens === undefined ? threshold : Math.min(threshold, options.maxTokens);
}
