import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { Blueprint, blueprintService } from '@tessera/plugin-blueprints';
import { z } from 'zod';
import { IdParam } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

const BlueprintBody = Blueprint.meta({ id: 'Blueprint' });

/** Your blueprints and the shared ones: list, read, delete (your own). */
export function blueprintRoutes(app: Api, platform: Platform): void {
  const blueprints = () => blueprintService(platform.services);
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/blueprints',
      operationId: 'listBlueprints',
      summary: 'Your blueprints and the shared ones',
      responses: { 200: json(z.object({ items: z.array(BlueprintBody) }), 'Blueprints'), 401: errors[401] },
    }),
    async (c) => c.json({ items: await blueprints().list(c.var.userId) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/blueprints/{id}',
      operationId: 'getBlueprint',
      summary: 'A blueprint in full',
      request: { params: IdParam },
      responses: {
        200: json(BlueprintBody, 'The blueprint'),
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
      summary: 'Delete one of your blueprints',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      await blueprints().delete(c.var.userId, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
}
