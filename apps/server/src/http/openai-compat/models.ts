import { createRoute } from '@hono/zod-openapi';
import { type ModelClass, ModelClass as ModelClasses } from '@tessera/core';
import { type Api, json } from '../routes/shared.ts';
import { modelNotFound, OpenAIErrorSchema } from './errors.ts';
import { ModelList } from './schemas.ts';

/** The model ids an OpenAI client may ask for: the app's model classes, which it maps to its models. */
export function modelClassOf(model: string): ModelClass {
  const parsed = ModelClasses.safeParse(model);
  if (!parsed.success) throw modelNotFound(model);
  return parsed.data;
}

export const openAIErrorResponses = {
  400: json(OpenAIErrorSchema, 'Invalid request'),
  401: json(OpenAIErrorSchema, 'Missing or invalid API key (your Tessera token)'),
  404: json(OpenAIErrorSchema, 'No such model (`model_not_found`), conversation or response of yours'),
};

export const TAG = 'OpenAI-compatible';

const MODEL_EXAMPLE = { id: 'normal', object: 'model', created: 1795837767, owned_by: 'tessera' };

/** When this server started: the `created` of its models. */
const created = Math.floor(Date.now() / 1000);
const modelObject = (id: ModelClass) => ({ id, object: 'model' as const, created, owned_by: 'tessera' });

export function modelRoutes(app: Api): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/models',
      operationId: 'openaiListModels',
      tags: [TAG],
      summary: 'List the models',
      description:
        "The app's model classes as OpenAI models: `normal` and `high` (the server maps each to its configured model). Give one as the `model` of a request.",
      responses: {
        200: json(ModelList, 'The models', {
          object: 'list',
          data: [MODEL_EXAMPLE, { ...MODEL_EXAMPLE, id: 'high' }],
        }),
        401: openAIErrorResponses[401],
      },
    }),
    (c) => c.json({ object: 'list' as const, data: ModelClasses.options.map(modelObject) }, 200),
  );
}
