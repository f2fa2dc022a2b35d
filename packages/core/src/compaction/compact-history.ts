import { errorMessage } from '../errors.ts';
import { isoNow } from '../iso-now.ts';
import type { PromptRecord } from '../loop/prompt-record.ts';
import type { Runtime } from '../loop/runtime.ts';
import type { ModelCallFacts } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import { compactedHistory } from '../projection/compaction-view.ts';
import { contextTokens, estimatorFor } from '../projection/context-tokens.ts';
import { promptsToMessages } from '../projection/prompts-to-messages.ts';
import { userMessage } from '../provider/messages.ts';
import type { ModelUsage } from '../provider/provider.ts';
import { historyBudget, SUMMARY_INSTRUCTIONS } from './compaction-options.ts';

/**
 * Before a prompt's first model call: when the conversation's context is past the compaction threshold, the
 * model summarizes the older prompts (all but the latest `keepRecent`, whole prompts only), and the summary
 * is recorded on this prompt as a `compaction` output, which the projection then sends in their place. A
 * failed summary call is recorded too (with its error): those prompts are then left out by the budget, as
 * before compaction. A cancelled run stops here like anywhere else.
 */
export async function compactHistory(
  runtime: Runtime,
  record: PromptRecord,
  history: readonly Prompt[],
  signal: AbortSignal,
): Promise<void> {
  const options = runtime.options.compaction;
  const prompt = record.prompt;
  if (!options || history.length === 0 || prompt.usage.modelCalls > 0) return;
  if (prompt.output.some((output) => output.type === 'compaction')) return; // once per prompt
  const model = runtime.options.models[prompt.model];
  const threshold = historyBudget(runtime.options, model)!;
  const view = compactedHistory(history, prompt);
  const estimate = estimatorFor(runtime.provider, model);
  const context = contextTokens(history, { current: prompt, estimate });
  if (context.tokens <= threshold) return;
  const older = view.prompts.slice(0, Math.max(0, view.prompts.length - (options.keepRecent ?? 2)));
  if (older.length === 0) return;

  const base = {
    type: 'compaction' as const,
    through: older.at(-1)!.id,
    prompts: (view.compaction?.prompts ?? 0) + older.length,
    tokensBefore: context.tokens,
    threshold,
  };
  const messages = promptsToMessages(older, {
    outputs: runtime.outputs,
    maxResultChars: runtime.options.maxResultChars,
  });
  const request = {
    model,
    modelClass: prompt.model,
    instructions: options.instructions ?? SUMMARY_INSTRUCTIONS,
    messages: [
      ...(view.summary ? [view.summary] : []),
      ...messages,
      userMessage('Summarize the conversation above, as your instructions say.'),
    ],
    tools: [],
  };
  const startedAt = isoNow();
  let firstTokenAt: string | undefined;
  const usage: ModelUsage[] = [];
  const text: string[] = [];
  let finish: string | undefined;
  try {
    for await (const event of runtime.provider.stream(request, signal)) {
      signal.throwIfAborted();
      firstTokenAt ??= isoNow();
      if (event.type === 'text-delta') text.push(event.delta);
      else if (event.type === 'usage') usage.push(event.usage);
      else if (event.type === 'finish') finish = event.reason;
    }
    const summary = text.join('').trim();
    if (!summary) throw new Error('The model returned an empty summary.');
    const facts: ModelCallFacts = {
      model,
      startedAt,
      ...(firstTokenAt && { firstTokenAt }),
      endedAt: isoNow(),
      ...(usage[0] && { usage: usage.reduce(addUsage) }),
      ...(finish && { finishReason: finish }),
    };
    await record.append({ ...base, summary, modelCall: facts });
  } catch (error) {
    if (signal.aborted) throw error;
    await record.append({ ...base, error: `The summary call failed: ${errorMessage(error)}` });
  }
}

const addUsage = (a: ModelUsage, b: ModelUsage): ModelUsage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0),
});
