import { createRoute } from '@hono/zod-openapi';
import type { PauseOutput, Platform, Prompt } from '@tessera/core';
import { tags } from '../api-reference.ts';
import { ApprovalPaths } from '../approval-paths.ts';
import { acceptedExample, pendingPauseExample } from '../examples.ts';
import { PauseDecisionBody, PendingPauses } from '../loop-control-schemas.ts';
import { Accepted, IdParam, PageQuery } from '../schemas.ts';
import { type Api, body, errors, json } from './shared.ts';
import { waitingPageDescription, waitingPrompts } from './waiting-prompts.ts';

const isPendingPause = (output: Prompt['output'][number]): output is PauseOutput =>
  output.type === 'pause' && output.decision === undefined;

/**
 * Prompts paused for your decision outside any tool call (the model repeating the same calls, a plugin, or a
 * budget reached): list them, continue (past a budget, with a larger one) or stop one.
 */
export function pauseRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/pauses',
      operationId: 'listPauses',
      tags: tags('pauses'),
      summary: 'List the prompts paused for you',
      description: `Your prompts paused for a decision (continue or stop), across all your conversations, sub-agents' included: the model repeated the same calls, a plugin asked, or a budget was reached. Each has its \`path\` from your prompt down to the paused one, as approvals do. ${waitingPageDescription('pending pauses')}`,
      request: { query: PageQuery },
      responses: {
        200: json(PendingPauses, 'Pending pauses', { items: [pendingPauseExample] }),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => {
      const userId = c.var.userId;
      const { prompts, nextCursor } = await waitingPrompts(platform, userId, c.req.valid('query'));
      const paths = new ApprovalPaths(platform, userId, prompts);
      const items = await Promise.all(
        prompts.flatMap((prompt) =>
          prompt.output.filter(isPendingPause).map(async (pause) => ({
            pauseId: pause.id,
            promptId: prompt.id,
            conversationId: prompt.conversationId,
            source: pause.source,
            ...(pause.plugin !== undefined && { plugin: pause.plugin }),
            ...(pause.budget !== undefined && { budget: pause.budget }),
            reason: pause.reason,
            createdAt: pause.createdAt,
            path: await paths.path(prompt),
          })),
        ),
      );
      return c.json({ items, ...(nextCursor !== undefined && { nextCursor }) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/pauses/{id}/resume',
      operationId: 'resumePause',
      tags: tags('pauses'),
      summary: 'Continue or stop a paused prompt',
      description:
        '`continue` runs the prompt on from where it paused, `stop` ends it. At a budget pause (`source: budget`), `continue` needs `budgets` with a larger limit for the budget reached (e.g. `{ "choice": "continue", "budgets": { "maxRounds": 50 } }`); the prompt goes on from where it stopped. `budgets` at another pause, with `stop`, with an unknown name, or not larger than what was used is a 400.',
      request: {
        params: IdParam,
        ...body(PauseDecisionBody, { choice: 'continue', budgets: { maxRounds: 50 } }),
      },
      responses: {
        202: json(Accepted, 'The prompt, resumed (or ending, for stop)', acceptedExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
        409: errors[409],
        413: errors[413],
        415: errors[415],
      },
    }),
    async (c) => {
      const { choice, budgets } = c.req.valid('json');
      const decision = { userId: c.var.userId, choice, ...(budgets && { budgets }) };
      // decide() answers once the decision is recorded; the loop goes on after the response.
      const run = await platform.decide(c.req.valid('param').id, decision);
      run.done.catch(() => {}); // the loop records its own failures
      return c.json({ prompt: run.prompt }, 202);
    },
  );
}
