import {
  errorMessage,
  type FirstModelCallContext,
  type HookModel,
  type ModelCallFacts,
  type ModelMessage,
  type ModelUsage,
  userMessage,
} from '@tessera/core';
import { compactedHistory } from './compacted-history.ts';
import { type CompactionOptions, compactionThreshold, SUMMARY_INSTRUCTIONS } from './compaction-options.ts';
import { contextSize } from './context-size.ts';

/**
 * Before a prompt's first model call: when the conversation's context is past the threshold, the model
 * summarizes the older prompts (all but the latest `keepRecent`, whole prompts only), and the summary is
 * recorded on this prompt as a `compaction` output, which the history view then sends in their place. A
 * failed summary call is recorded too (with its error): this prompt then leaves those prompts out. A
 * cancelled run stops here like anywhere else (the abort is thrown on).
 */
export async function compactHistory(
  options: CompactionOptions,
  context: FirstModelCallContext<unknown>,
): Promise<void> {
  const { history, prompt, model, project, signal } = context;
  if (history.length === 0 || prompt.output.some((output) => output.type === 'compaction')) return;
  const threshold = compactionThreshold(options, model.name);
  const view = compactedHistory(history, prompt);
  const tokens = contextSize(view, prompt, { estimate: model.estimate, project });
  if (tokens <= threshold) return;
  const older = view.prompts.slice(0, Math.max(0, view.prompts.length - options.keepRecent));
  if (older.length === 0) return;

  const base = {
    type: 'compaction' as const,
    through: older.at(-1)!.id,
    prompts: (view.summary?.prompts ?? 0) + older.length,
    tokensBefore: tokens,
    threshold,
  };
  try {
    const messages = [
      ...view.before,
      ...project(older),
      userMessage('Summarize the conversation above, as your instructions say.'),
    ];
    const instructions = options.instructions ?? SUMMARY_INSTRUCTIONS;
    const { summary, modelCall } = await summarizeWith(model, { instructions, messages }, signal);
    await context.record({ ...base, summary, modelCall });
  } catch (error) {
    if (signal.aborted) throw error;
    await context.record({ ...base, error: `The summary call failed: ${errorMessage(error)}` });
  }
}

/** One model call without tools, read whole: its text (which must not be empty) and its facts. */
async function summarizeWith(
  model: HookModel,
  request: { instructions: string; messages: readonly ModelMessage[] },
  signal: AbortSignal,
): Promise<{ summary: string; modelCall: ModelCallFacts }> {
  const startedAt = new Date().toISOString();
  let firstTokenAt: string | undefined;
  const usage: ModelUsage[] = [];
  const text: string[] = [];
  let finish: string | undefined;
  for await (const event of model.stream(request)) {
    signal.throwIfAborted();
    firstTokenAt ??= new Date().toISOString();
    if (event.type === 'text-delta') text.push(event.delta);
    else if (event.type === 'usage') usage.push(event.usage);
    else if (event.type === 'finish') finish = event.reason;
  }
  const summary = text.join('').trim();
  if (!summary) throw new Error('The model returned an empty summary.');
  return {
    summary,
    modelCall: {
      model: model.name,
      startedAt,
      ...(firstTokenAt && { firstTokenAt }),
      endedAt: new Date().toISOString(),
      ...(usage[0] && { usage: usage.reduce(addUsage) }),
      ...(finish && { finishReason: finish }),
    },
  };
}

const addUsage = (a: ModelUsage, b: ModelUsage): ModelUsage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0),
});
