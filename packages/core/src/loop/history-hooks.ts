import { HookError } from '../errors.ts';
import type { Prompt } from '../model/prompt.ts';
import type { HistoryView, HookModel } from '../plugins/hooks.ts';
import { promptsToMessages } from '../projection/prompts-to-messages.ts';
import { estimateTokens, estimatorFor } from '../provider/provider.ts';
import type { HookScope } from './hook-table.ts';
import { messagesFault } from './model-call.ts';
import type { PromptRecord } from './prompt-record.ts';
import type { Runtime } from './runtime.ts';

/** Runs the plugins' `beforeFirstModelCall` hooks, in plugin order, with the whole history. */
export async function beforeFirstModelCall(
  runtime: Runtime,
  record: PromptRecord,
  history: readonly Prompt[],
  scope: HookScope,
  signal: AbortSignal,
): Promise<void> {
  const { outputs, options, projectionCache } = runtime;
  const model = hookModel(runtime, record.prompt, signal);
  const project = (prompts: readonly Prompt[]) =>
    promptsToMessages(prompts, { outputs, maxResultChars: options.maxResultChars, cache: projectionCache });
  const recordOutput = (output: Parameters<PromptRecord['append']>[0]) => record.append(output);
  for (const entry of runtime.hooks.beforeFirstModelCall) {
    await scope.call(entry, { history, model, project, record: recordOutput });
  }
}

/**
 * The history the model reads this run, as the plugins' `historyView` hooks chose it (each sees the view of
 * the one before); undefined when none changed it. A view must keep to the history's own prompts, in order,
 * and put well-formed messages before them: anything else fails the prompt (`hook_failed`).
 */
export async function historyView(
  runtime: Runtime,
  history: readonly Prompt[],
  scope: HookScope,
): Promise<HistoryView | undefined> {
  let view: HistoryView | undefined;
  for (const entry of runtime.hooks.historyView) {
    const current = view?.prompts ?? history;
    const result = await scope.call(entry, { history: current });
    if (!result) continue;
    const fault = viewFault(result, current);
    if (fault) throw new HookError(entry.plugin.id, entry.name, fault);
    view = { prompts: result.prompts, before: [...(view?.before ?? []), ...(result.before ?? [])] };
  }
  return view;
}

function viewFault(view: HistoryView, history: readonly Prompt[]): string | undefined {
  if (!Array.isArray(view.prompts)) return 'prompts must be an array';
  let at = 0;
  for (const prompt of view.prompts) {
    while (at < history.length && history[at] !== prompt) at++;
    if (at === history.length) return 'prompts must be some of the history it was given, in order';
    at++;
  }
  if (view.before === undefined) return undefined;
  return Array.isArray(view.before) ? messagesFault(view.before) : 'before must be an array of messages';
}

/** The prompt's model for a hook's own calls: the run's signal aborts them. */
function hookModel(runtime: Runtime, prompt: Prompt, signal: AbortSignal): HookModel {
  const name = runtime.options.models[prompt.model];
  const estimate = estimatorFor(runtime.provider, name) ?? estimateTokens;
  return {
    name,
    estimate,
    // Only the parts a hook may choose: the model is the prompt's, whatever else the request carries.
    stream: ({ instructions, messages, tools = [] }) =>
      runtime.provider.stream(
        { model: name, modelClass: prompt.model, instructions, messages, tools },
        signal,
      ),
  };
}
