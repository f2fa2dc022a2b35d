import type { ModelClass, ModelProvider } from '@tessera/core';
import { createOpenAIProvider } from '@tessera/openai';
import type { ServerConfig } from './config.ts';
import { DEMO_LABEL, DemoModel } from './demo/demo-model.ts';
import { demoRules } from './demo/demo-plugin.ts';

/** What clients are told about the model (`/api/me`). */
export type ModelInfo = { id: string; label: string; demo: boolean };

/** The model given, else the OpenAI (or compatible) provider when configured, else the offline demo model. */
export function chooseModel(
  config: ServerConfig,
  given: ModelProvider | undefined,
): { model: ModelProvider; info: ModelInfo } {
  const info = (model: ModelProvider, demo = false) => ({
    model,
    info: { id: model.id, label: demo ? DEMO_LABEL : (model.label ?? model.id), demo },
  });
  if (given) return info(given);
  if (config.openai) {
    const { apiKey, baseURL, api, exactTokenCounts } = config.openai;
    return info(createOpenAIProvider({ apiKey, baseURL, api, exactTokenCounts }));
  }
  return info(new DemoModel(demoRules), true);
}

/**
 * The concrete model name of each class, which the platform records on every call: the configured `models`,
 * else the names a provider gives for its own classes (`createAISDKProvider` names its models' ids, e.g.
 * `claude-sonnet-4-5`), else the defaults.
 */
export function modelNames(
  config: ServerConfig,
  configured: boolean,
  model: ModelProvider,
): Record<ModelClass, string> {
  const named = (model as { models?: unknown }).models;
  if (configured || typeof named !== 'object' || named === null) return config.models;
  const { normal, high } = named as Partial<Record<ModelClass, unknown>>;
  return typeof normal === 'string' && typeof high === 'string' && normal && high
    ? { normal, high }
    : config.models;
}
