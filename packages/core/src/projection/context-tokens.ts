import type { ModelCallFacts, PromptOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import { toolResultText } from '../outputs/core-outputs.ts';
import { assistantMessage, type ModelMessage, userMessage } from '../provider/messages.ts';
import { estimateTokens } from '../provider/provider.ts';
import { withheldNote } from './withheld.ts';

/** How many tokens a conversation's context holds now, and how much of that number is the provider's. */
export type ContextTokens = {
  /** The provider's count of the last model call (its input and output tokens) plus the estimate after it. */
  tokens: number;
  /** The provider-reported part: input + output tokens of the last model call that reported usage. */
  reported: number;
  /** The estimated part: what was recorded after that call (tool results, later prompts), or everything. */
  estimated: number;
  /** The response the count is anchored on; absent when no call reported usage yet. */
  anchor?: string;
};

type Estimate = (messages: readonly ModelMessage[]) => number;

/** The provider's estimate for `model`, when it has one (else `contextTokens` counts four characters a token). */
export function estimatorFor(
  provider: { estimateTokens?(messages: readonly ModelMessage[], model?: string): number },
  model: string,
): Estimate | undefined {
  return provider.estimateTokens && ((messages) => provider.estimateTokens!(messages, model));
}

/**
 * The size of a conversation's context (seed 004's hybrid): anchored on the input tokens the provider
 * reported for the last model call, which cover everything that call was sent (instructions and tools
 * included), plus its output tokens, plus an estimate of only what was recorded after it. Before any call
 * reported usage, everything is estimated. The projection's budget, the run report and the UI all use this
 * one count. `estimate` is the provider's tokenizer when it has one, else about four characters a token.
 */
export function contextTokens(
  fullHistory: readonly Prompt[],
  options: { estimate?: Estimate | undefined; current?: Prompt; anchored?: boolean } = {},
): ContextTokens {
  const estimate = options.estimate ?? estimateTokens;
  // The current prompt apart from the history: no copy of the history every round.
  const { current } = options;
  const history = fullHistory;
  const count = history.length + (current ? 1 : 0);
  const at = (p: number): Prompt => (p < history.length ? history[p]! : current!);
  let anchor: { prompt: number; output: number; facts: ModelCallFacts; responseId: string } | undefined;
  search: for (let p = count - 1; p >= 0 && options.anchored !== false; p--) {
    const outputs = at(p).output as PromptOutput[];
    for (let o = outputs.length - 1; o >= 0; o--) {
      const output = outputs[o] as PromptOutput & { modelCall?: ModelCallFacts; responseId?: string };
      const facts = output.modelCall;
      if (facts?.usage && facts.usage.inputTokens > 0 && output.responseId) {
        anchor = { prompt: p, output: o, facts, responseId: output.responseId };
        break search;
      }
    }
  }
  const after: ModelMessage[] = [];
  const start = anchor ? anchor.prompt : 0;
  for (let p = start; p < count; p++) {
    const prompt = at(p);
    const outputs = prompt.output as PromptOutput[];
    const anchored = anchor && p === anchor.prompt ? anchor : undefined;
    if (!anchored && prompt.input) after.push(userMessage(prompt.input));
    // The anchored call's calls: their results, and what they emitted, came after it.
    const calls = new Set<string>();
    if (anchored) {
      for (const output of outputs)
        if (output.type === 'tool' && output.responseId === anchored.responseId) calls.add(output.id);
    }
    for (const [o, output] of outputs.entries()) {
      if (anchored) {
        if (output.type === 'tool' && calls.has(output.id)) {
          // The call itself is in the call's output tokens.
          if (output.result) after.push(resultMessage(output));
          continue;
        }
        const emittedAfter = output.toolCallId !== undefined && calls.has(output.toolCallId);
        // Earlier outputs were in the call's input tokens; the anchored response's own, in its output tokens.
        if ((o <= anchored.output && !emittedAfter) || responseOf(output) === anchored.responseId) continue;
      }
      after.push(...messagesOf(output));
    }
  }
  const usage = anchor?.facts.usage;
  const reported = usage ? usage.inputTokens + usage.outputTokens : 0;
  const estimated = after.length > 0 ? estimate(after) : 0;
  return {
    tokens: reported + estimated,
    reported,
    estimated,
    ...(anchor && { anchor: anchor.responseId }),
  };
}

const responseOf = (output: PromptOutput): string | undefined =>
  (output as { responseId?: string }).responseId;

const resultMessage = (output: Extract<PromptOutput, { type: 'tool' }>): ModelMessage => ({
  type: 'function_call_output',
  callId: output.callId,
  output: toolResultText(output),
});

/** What an output roughly costs the model: the core variants by their content, others by their JSON. */
function messagesOf(output: PromptOutput): ModelMessage[] {
  switch (output.type) {
    case 'text':
      return [assistantMessage(output.text)];
    case 'tool':
      return [
        {
          type: 'function_call',
          callId: output.callId,
          name: output.toolId,
          arguments: output.arguments ?? JSON.stringify(output.editedInput ?? output.input ?? {}),
        },
        resultMessage(output),
      ];
    case 'reasoning':
      return [{ type: 'reasoning', summary: output.summary, text: output.text }];
    case 'steering':
      return [userMessage(output.text)];
    case 'guardrail': // what it withheld is still counted: a little more than the model reads
      return [withheldNote(output)];
    case 'pause':
      return [];
    default:
      return [userMessage(JSON.stringify(output))];
  }
}
