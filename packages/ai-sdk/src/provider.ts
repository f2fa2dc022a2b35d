import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import {
  DefinitionError,
  type ModelClass,
  ModelError,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelUsage,
} from '@tessera/core';
import { ToolNames, withRetries } from '@tessera/provider-utils';
import { retryAfterMs, toModelError } from './errors.ts';
import type { AISDKLanguageModel, AISDKModelSettings, AISDKProviderOptions, ModelPrice } from './options.ts';
import { callOptions } from './prompt.ts';
import { fromStreamParts } from './stream.ts';

/** A Tessera model provider over AI SDK models, with the model id of each class (for the platform's `models`). */
export type AISDKModelProvider = ModelProvider & { readonly models: Readonly<Record<ModelClass, string>> };

const cost = (usage: ModelUsage, price: ModelPrice): number => {
  const cached = usage.cachedInputTokens ?? 0;
  return (
    ((usage.inputTokens - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000
  );
};

function settingsOf(given: AISDKLanguageModel | AISDKModelSettings, modelClass: string): AISDKModelSettings {
  const settings: AISDKModelSettings =
    typeof given === 'object' && given !== null && 'model' in given ? given : { model: given };
  const version = (settings.model as { specificationVersion?: unknown } | undefined)?.specificationVersion;
  if (version !== 'v3' && version !== 'v4') {
    throw new DefinitionError(
      `The ${modelClass} model is not an AI SDK language model of specification v3 or v4 (found ${JSON.stringify(version ?? null)}): pass a model such as anthropic('claude-sonnet-4-5') from @ai-sdk/anthropic 3 or later.`,
    );
  }
  return settings;
}

/**
 * A Tessera model provider over any AI SDK language model (`anthropic('claude-…')`, `google('gemini-…')`,
 * Bedrock, Mistral, …), through the specification every AI SDK provider implements: each call is the
 * model's `doStream()`, its parts mapped to Tessera's events. A prompt's model class picks the model.
 */
export function createAISDKProvider(options: AISDKProviderOptions): AISDKModelProvider {
  const normal = settingsOf(options.models.normal, 'normal');
  const byClass: Record<ModelClass, AISDKModelSettings> = {
    normal,
    high: options.models.high ? settingsOf(options.models.high, 'high') : normal,
  };
  const retry = {
    maxRetries: options.maxRetries ?? 3,
    baseDelayMs: options.retryBaseDelayMs ?? 500,
    maxDelayMs: options.retryMaxDelayMs ?? 20_000,
    toModelError,
    retryAfterMs,
  };
  const idleMs = options.idleTimeoutMs ?? 120_000;

  async function* attempt(
    request: ModelRequest,
    settings: AISDKModelSettings,
    names: ToolNames,
    signal: AbortSignal,
  ): AsyncGenerator<ModelStreamEvent> {
    // A call that sends nothing for `idleMs` (no part, not even a ping) is aborted and counts as a timeout.
    const idle = new AbortController();
    let stalled = false;
    const watchdog = setTimeout(() => {
      stalled = true;
      idle.abort(
        new ModelError(`The model sent nothing for ${idleMs} ms.`, { kind: 'timeout', retryable: true }),
      );
    }, idleMs);
    const abortSignal = AbortSignal.any([signal, idle.signal]);
    try {
      const model = settings.model as unknown as LanguageModelV4;
      const call: LanguageModelV4CallOptions = {
        ...callOptions(request, names),
        abortSignal,
        ...(settings.maxOutputTokens !== undefined && { maxOutputTokens: settings.maxOutputTokens }),
        ...(settings.temperature !== undefined && { temperature: settings.temperature }),
        ...(settings.reasoning !== undefined && { reasoning: settings.reasoning }),
        ...(settings.providerOptions && {
          providerOptions: settings.providerOptions as LanguageModelV4CallOptions['providerOptions'],
        }),
        ...(settings.headers && { headers: settings.headers }),
      };
      const { stream } = await model.doStream(call);
      watchdog.refresh();
      const parts = (async function* () {
        for await (const part of stream) {
          watchdog.refresh();
          yield part;
        }
      })();
      for await (const event of fromStreamParts(parts, names)) {
        if (event.type === 'usage' && settings.price) {
          yield { type: 'usage', usage: { ...event.usage, cost: cost(event.usage, settings.price) } };
        } else yield event;
      }
    } catch (error) {
      if (stalled && !signal.aborted) throw idle.signal.reason;
      throw error;
    } finally {
      clearTimeout(watchdog);
    }
  }

  return {
    id: `ai-sdk:${normal.model.provider}`,
    label: `${normal.model.modelId} via the AI SDK (${normal.model.provider})`,
    models: { normal: byClass.normal.model.modelId, high: byClass.high.model.modelId },
    stream(request, signal) {
      const settings = byClass[request.modelClass] ?? normal;
      const names = new ToolNames(request.tools.map((tool) => tool.name));
      return withRetries(() => attempt(request, settings, names, signal), retry, signal);
    },
  };
}
