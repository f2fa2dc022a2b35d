import { createRoute } from '@hono/zod-openapi';
import { type ModelClass, ModelClass as ModelClasses } from '@tessera/core';
import { z } from 'zod';
import { type Api, json } from '../routes/shared.ts';
import { modelNotFound, OpenAIErrorSchema } from './errors.ts';
import { ModelList, ModelObject } from './schemas.ts';

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
      summary: "The app's model classes, as OpenAI models (`normal`, `high`)",
      responses: { 200: json(ModelList, 'The models'), 401: openAIErrorResponses[401] },
    }),
    (c) => c.json({ object: 'list' as const, data: ModelClasses.options.map(modelObject) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/models/{model}',
      operationId: 'openaiGetModel',
      tags: [TAG],
      summary: 'One model class, as an OpenAI model',
      request: { params: z.object({ model: z.string().max(200) }) },
      responses: {
        200: json(ModelObject, 'The model'),
        400: openAIErrorResponses[400],
        401: openAIErrorResponses[401],
        404: openAIErrorResponses[404],
      },
    }),
    (c) => c.json(modelObject(modelClassOf(c.req.valid('param').model)), 200),
  );
}
