import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { z } from 'zod';
import { MAX_INSTRUCTIONS, readInstructions, writeInstructions } from '../../user-instructions.ts';
import { tags } from '../api-reference.ts';
import { type Api, body, errors, json } from './shared.ts';

const Instructions = z
  .object({
    instructions: z
      .string()
      .max(MAX_INSTRUCTIONS)
      .meta({ description: "Standing instructions for the model, in every prompt of yours ('' for none)" }),
  })
  .strict()
  .meta({ id: 'UserInstructions' });

const INSTRUCTIONS_EXAMPLE = { instructions: 'Answer in French. Amounts in euros.' };

/** Your standing instructions for the model: read and replace. */
export function instructionRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/me/instructions',
      operationId: 'getInstructions',
      tags: tags('me'),
      summary: 'Read your standing instructions',
      description: "What the model is told in every prompt of yours ('' when you have none).",
      responses: { 200: json(Instructions, 'Your instructions', INSTRUCTIONS_EXAMPLE), 401: errors[401] },
    }),
    async (c) => c.json(await readInstructions(platform.store.records, c.var.userId), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/me/instructions',
      operationId: 'setInstructions',
      tags: tags('me'),
      summary: 'Replace your standing instructions',
      description:
        "The model reads them from its next call on, in every prompt of yours, running ones included. `''` removes them.",
      request: body(Instructions, INSTRUCTIONS_EXAMPLE),
      responses: {
        200: json(Instructions, 'Your instructions, as saved', INSTRUCTIONS_EXAMPLE),
        400: errors[400],
        401: errors[401],
        413: errors[413],
        415: errors[415],
      },
    }),
    async (c) =>
      c.json(
        await writeInstructions(platform.store.records, c.var.userId, c.req.valid('json').instructions),
        200,
      ),
  );
}
