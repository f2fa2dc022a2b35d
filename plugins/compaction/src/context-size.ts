import type { ModelCallFacts, ModelMessage, Prompt } from '@tessera/core';
import type { CompactedHistory } from './compacted-history.ts';

type Estimate = (messages: readonly ModelMessage[]) => number;
type Project = (prompts: readonly Prompt[]) => ModelMessage[];

/**
 * How many tokens the model would read of `view` and the current prompt's input: the provider's count of
 * the last model call since the latest summary (its input and output tokens), plus an estimate of the
 * prompts after it; without such a call, all of it estimated. The plugin's own count, decided by the
 * provider's reported usage: it needs nothing but core's record. Calls before the summary are no anchor
 * (they were sent what it summarizes), told apart by position: a fast run records both in one millisecond.
 */
export function contextSize(
  view: CompactedHistory,
  current: Prompt,
  options: { estimate: Estimate; project: Project },
): number {
  const prompts = [...view.prompts, current];
  const anchor = lastCount(prompts, view.summary?.id);
  const after = anchor ? prompts.slice(anchor.prompt + 1, -1) : view.prompts;
  const messages: ModelMessage[] = [...(anchor ? [] : view.before), ...options.project(after)];
  if (current.input) messages.push({ type: 'message', role: 'user', content: current.input });
  const usage = anchor?.facts.usage;
  return (usage ? usage.inputTokens + usage.outputTokens : 0) + options.estimate(messages);
}

/** The last model call with a count, newest first, stopping at the output `stopAt` (the latest summary). */
function lastCount(prompts: readonly Prompt[], stopAt: string | undefined) {
  for (let p = prompts.length - 1; p >= 0; p--) {
    const outputs = prompts[p]!.output;
    for (let o = outputs.length - 1; o >= 0; o--) {
      const output = outputs[o]!;
      if (output.id === stopAt) return undefined;
      const facts = (output as { modelCall?: ModelCallFacts }).modelCall;
      if (facts?.usage && facts.usage.inputTokens > 0 && output.type !== 'compaction')
        return { prompt: p, facts };
    }
  }
  return undefined;
}
