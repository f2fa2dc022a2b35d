import type { Platform } from '@tessera/core';
import type { MiddlewareHandler } from 'hono';
import type { Api } from '../routes/shared.ts';
import { chatCompletionRoutes } from './chat-completions.ts';
import { openAIErrors } from './errors.ts';
import { modelRoutes } from './models.ts';
import { responseRoutes } from './responses.ts';

export type OpenAICompatOptions = {
  /** What guards `/api/*` and guards `/v1/*` the same way: the body limit, then rate limits and authentication. */
  guards: readonly MiddlewareHandler[];
  maxInputChars: number;
};

/**
 * The OpenAI-compatible API under `/v1`: Chat Completions, Responses and the model list, for the clients
 * people already have (the `openai` SDKs, Open WebUI, editors). Authenticated and limited like the rest of
 * the API; every error in OpenAI's shape.
 */
export function openAICompatRoutes(app: Api, platform: Platform, options: OpenAICompatOptions): void {
  app.use('/v1/*', openAIErrors, ...options.guards);
  modelRoutes(app);
  chatCompletionRoutes(app, platform, options);
  responseRoutes(app, platform, options);
}
