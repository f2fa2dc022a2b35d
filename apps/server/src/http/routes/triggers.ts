import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { Trigger, triggerService } from '@tessera/plugin-triggers';
import { z } from 'zod';
import { tags } from '../api-reference.ts';
import { triggerExample } from '../examples.ts';
import { Id, IdParam } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

const TriggerBody = Trigger.meta({ id: 'Trigger' });
const TriggerWithDescription = z.object({ trigger: TriggerBody, description: z.string() });

/** The user's triggers: list (all, or one conversation's), pause, resume, delete. */
export function triggerRoutes(app: Api, platform: Platform): void {
  const triggers = () => triggerService(platform.services);
  const describe = (trigger: Trigger) => ({ trigger, description: triggers().describe(trigger) });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/triggers',
      operationId: 'listTriggers',
      tags: tags('triggers'),
      summary: 'List your triggers',
      description:
        'Your triggers (scheduled prompts the model created with your approval), all or those of one conversation, each with its schedule in words, its next fire and its recent runs.',
      request: { query: z.object({ conversationId: Id.optional() }) },
      responses: {
        200: json(z.object({ items: z.array(TriggerWithDescription) }), 'Triggers', {
          items: [triggerExample],
        }),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => {
      const { conversationId } = c.req.valid('query');
      const items = await triggers().list(c.var.userId, conversationId ? { conversationId } : {});
      return c.json({ items: items.map(describe) }, 200);
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/triggers/{id}/${action}`,
        operationId: `${action}Trigger`,
        tags: tags('triggers'),
        summary: action === 'pause' ? 'Pause a trigger' : 'Resume a trigger',
        description:
          action === 'pause'
            ? 'It does not fire until it is resumed.'
            : 'A paused trigger fires again, at its next scheduled time.',
        request: { params: IdParam },
        responses: {
          200: json(TriggerWithDescription, 'The trigger', {
            trigger: { ...triggerExample.trigger, status: action === 'pause' ? 'paused' : 'active' },
            description: triggerExample.description,
          }),
          400: errors[400],
          401: errors[401],
          404: errors[404],
          409: errors[409],
        },
      }),
      async (c) => c.json(describe(await triggers()[action](c.var.userId, c.req.valid('param').id)), 200),
    );
  }

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/triggers/{id}',
      operationId: 'deleteTrigger',
      tags: tags('triggers'),
      summary: 'Delete a trigger',
      description: 'It never fires again; the prompts it started stay in their conversation.',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      await triggers().get(c.var.userId, c.req.valid('param').id); // 404 unless it is the caller's
      await triggers().delete(c.var.userId, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
}
