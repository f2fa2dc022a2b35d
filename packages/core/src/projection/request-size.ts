import type { Prompt } from '../model/prompt.ts';
import { type ModelMessage, userMessage } from '../provider/messages.ts';
import type { ModelToolDefinition } from '../provider/provider.ts';

type Estimate = (messages: readonly ModelMessage[]) => number;

/**
 * How many of the provider's tokens one token of Tessera's estimate is, from the latest model call in
 * `prompts` that recorded both counts (`usage.inputTokens` beside `estimatedInputTokens`); undefined when no
 * call did. Never below 1: a request must fit the budget by the estimate too, whatever a provider reported
 * (less than the estimate, nothing, or a count of another request). Both counts are of the same request,
 * so the ratio holds whatever the history sent then (a plugin's view may have changed since).
 */
export function providerScale(prompts: readonly Prompt[]): number | undefined {
  for (let p = prompts.length - 1; p >= 0; p--) {
    const outputs = prompts[p]!.output;
    for (let o = outputs.length - 1; o >= 0; o--) {
      const output = outputs[o]!;
      const facts = (output as { modelCall?: CallCounts }).modelCall;
      if (facts?.usage && facts.estimatedInputTokens)
        return Math.max(1, facts.usage.inputTokens / facts.estimatedInputTokens);
    }
  }
  return undefined;
}

type CallCounts = { usage?: { inputTokens: number }; estimatedInputTokens?: number };

/** Estimated tokens of tool definitions, by the array a round offers (rounds that offer the same share it). */
const toolTokens = new WeakMap<readonly ModelToolDefinition[], { estimate: Estimate; tokens: number }>();

/** What a request costs besides its messages: its instructions and its tools' definitions, estimated. */
export function overheadTokens(
  instructions: string,
  tools: readonly ModelToolDefinition[],
  estimate: Estimate,
): number {
  let known = toolTokens.get(tools);
  if (known?.estimate !== estimate) {
    const tokens = tools.length > 0 ? estimate([userMessage(JSON.stringify(tools))]) : 0;
    known = { estimate, tokens };
    if (Object.isFrozen(tools)) toolTokens.set(tools, known);
  }
  return (instructions ? estimate([userMessage(instructions)]) : 0) + known.tokens;
}
