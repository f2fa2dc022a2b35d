/**
 * When and how a long conversation is summarized (see `compactHistory`). Off unless given: with it, older
 * prompts are summarized by the model once the context passes `threshold` of the model's context window,
 * instead of being left out.
 */
export type CompactionOptions = {
  /**
   * Summarize when the context (`contextTokens`) passes this fraction of the model's context window.
   * @default 0.8
   */
  threshold?: number;
  /** Context windows in tokens by concrete model name (`models.normal`, `models.high`). */
  contextWindows?: Record<string, number>;
  /**
   * The context window of a model not in `contextWindows`.
   * @default 128_000
   */
  contextWindow?: number;
  /**
   * How many of the latest prompts stay whole after the summary.
   * @default 2
   */
  keepRecent?: number;
  /** The summary call's instructions, in place of the default ones. */
  instructions?: string;
};

export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The token count past which `model`'s history is summarized. */
export function compactionThreshold(options: CompactionOptions, model: string): number {
  const window = options.contextWindows?.[model] ?? options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  return Math.floor(window * (options.threshold ?? 0.8));
}

/**
 * The history budget of a prompt on `model`: `historyTokens`, and with compaction its threshold, whichever is
 * lower. Compaction starts past it; the projection leaves the oldest prompts out past it (when there is no
 * summary, or the summary and the recent prompts are still too much).
 */
export function historyBudget(
  options: { historyTokens?: number | undefined; compaction?: CompactionOptions | undefined },
  model: string,
): number | undefined {
  const threshold = options.compaction ? compactionThreshold(options.compaction, model) : undefined;
  if (threshold === undefined) return options.historyTokens;
  return Math.min(threshold, options.historyTokens ?? threshold);
}

export const SUMMARY_INSTRUCTIONS = [
  'You are compacting a long conversation so that it can continue within the context window.',
  'Write a faithful summary of the conversation so far for the assistant that will continue it.',
  'Keep every fact the user stated (names, numbers, dates, preferences), every decision, what tools found',
  'and did, open questions and unfinished tasks. Leave out pleasantries. Write plain text, no preamble.',
].join(' ');
