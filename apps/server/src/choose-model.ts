import type { ModelProvider } from '@tessera/core';
import { createOpenAIProvider } from '@tessera/openai';
import type { ServerConfig } from './config.ts';
import { DEMO_LABEL, DemoModel } from './demo/demo-model.ts';
import { demoRules } from './demo/demo-plugin.ts';

/** What clients are told about the model (`/api/me`, `/health`). */
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
    const { apiKey, baseURL, api } = config.openai;
    return info(createOpenAIProvider({ apiKey, baseURL, api }));
  }
  return info(new DemoModel(demoRules), true);
}
