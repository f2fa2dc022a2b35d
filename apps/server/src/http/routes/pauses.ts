import { createRoute } from '@hono/zod-openapi';
import type { PauseOutput, Platform, Prompt } from '@tessera/core';
import { PauseDecisionBody, PendingPauses } from '../loop-control-schemas.ts';
import { Accepted, IdParam, PageQuery } from '../schemas.ts';
import { type Api, body, errors, json } from './shared.ts';
import { waitingPageDescription, waitingPrompts } from './waiting-prompts.ts';

const isPendingPause = (output: Prompt['output'][number]): output is PauseOutput =>
  output.type === 'pause' && output.decision === undefined;

/**
 * Prompts paused for your decision outside any tool call (the model repeating the same calls, or a plugin):
 * list them, continue or stop one.
 */
export function pauseRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/pauses',
      operationId: 'listPauses',
      summary: 'Your prompts paused for a decision (continue or stop), across conversations',
      description: waitingPageDescription('pending pauses'),
      request: { query: PageQuery },
      responses: { 200: json(PendingPauses, 'Pending pauses'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => {
      const { prompts, nextCursor } = await waitingPrompts(platform, c.var.userId, c.req.valid('query'));
      const items = prompts.flatMap((prompt) =>
        prompt.output.filter(isPendingPause).map((pause) => ({
          pauseId: pause.id,
          promptId: prompt.id,
          conversationId: prompt.conversationId,
          source: pause.source,
          ...(pause.plugin !== undefined && { plugin: pause.plugin }),
          reason: pause.reason,
          createdAt: pause.createdAt,
        })),
      );
      return c.json({ items, ...(nextCursor !== undefined && { nextCursor }) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/pauses/{id}/resume',
      operationId: 'resumePause',
      summary: 'Decide a pause: continue the prompt, or stop it',
      request: { params: IdParam, ...body(PauseDecisionBody) },
      responses: {
        202: json(Accepted, 'The prompt, resumed (or ending, for stop)'),
        400: errors[400],
        401: errors[401],
        404: errors[404],
        409: errors[409],
        413: errors[413],
        415: errors[415],
      },
    }),
    async (c) => {
      const { choice } = c.req.valid('json');
      // decide() answers once the decision is recorded; the loop goes on after the response.
      const run = await platform.decide(c.req.valid('param').id, { userId: c.var.userId, choice });
      run.done.catch(() => {}); // the loop records its own failures
      return c.json({ prompt: run.prompt }, 202);
    },
  );
}
