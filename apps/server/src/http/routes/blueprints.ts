import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { Blueprint, blueprintService } from '@tessera/plugin-blueprints';
import { z } from 'zod';
import { tags } from '../api-reference.ts';
import { blueprintExample } from '../examples.ts';
import { IdParam, PageQuery } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

const BlueprintBody = Blueprint.meta({ id: 'Blueprint' });
const BlueprintPage = z.object({ items: z.array(BlueprintBody), nextCursor: z.string().optional() });

/** Your blueprints and the shared ones: list, read, delete (your own). */
export function blueprintRoutes(app: Api, platform: Platform): void {
  const blueprints = () => blueprintService(platform.services);
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/blueprints',
      operationId: 'listBlueprints',
      tags: tags('blueprints'),
      summary: 'List the blueprints',
      description:
        'Your blueprints, then the shared ones: step-by-step procedures the model finds when a task matches one and follows. `limit` at a time (50 unless given, at most 200; a page can hold fewer). Follow `nextCursor` for the next page; it is absent on the last.',
      request: { query: PageQuery },
      responses: {
        200: json(BlueprintPage, 'A page of blueprints', { items: [blueprintExample] }),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => c.json(await blueprints().page(c.var.userId, c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/blueprints/{id}',
      operationId: 'getBlueprint',
      tags: tags('blueprints'),
      summary: 'Read a blueprint',
      description:
        'One of your blueprints, or a shared one, in full: its steps, tags and how often it was used.',
      request: { params: IdParam },
      responses: {
        200: json(BlueprintBody, 'The blueprint', blueprintExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => c.json(await blueprints().get(c.var.userId, c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/blueprints/{id}',
      operationId: 'deleteBlueprint',
      tags: tags('blueprints'),
      summary: 'Delete a blueprint',
      description: 'Deletes one of your own blueprints (the shared ones are not yours to delete).',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      await blueprints().delete(c.var.userId, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
}
