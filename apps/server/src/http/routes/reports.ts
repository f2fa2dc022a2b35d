import { createRoute } from '@hono/zod-openapi';
import type { ModelMessage, Platform, Prompt } from '@tessera/core';
import { PromptReportSchema, promptReport } from '@tessera/reports';
import { tags } from '../api-reference.ts';
import { reportExample } from '../examples.ts';
import { IdParam } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

const PromptReportBody = PromptReportSchema.meta({ id: 'PromptReport' });

/**
 * A prompt's run report: derived on each request from the prompt's record (nothing is stored twice), so it
 * is as current as the prompt, running or ended; with how full the conversation's context is after it,
 * counted from the record (`contextTokens` of @tessera/reports).
 */
export type ContextOptions = {
  /**
   * Where a prompt's history is reduced (`historyTokens`, or the compaction threshold if lower), shown
   * beside the context's size.
   */
  budget?: (prompt: Prompt) => number | undefined;
  /** The token estimate of a prompt's model (`estimatorFor`), else about four characters a token. */
  estimate?: (prompt: Prompt) => ((messages: readonly ModelMessage[]) => number) | undefined;
};

export function reportRoutes(app: Api, platform: Platform, context: ContextOptions = {}): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/prompts/{id}/report',
      operationId: 'getPromptReport',
      tags: tags('prompts'),
      summary: "Read a prompt's run report",
      description:
        "What a prompt's run cost and took, derived from its record on each request (as current as the prompt, running or ended): per model call its latency, time to first token, tokens and cost; per tool call its latency, result size and outcome; the totals, why it stopped, and how full the conversation's context is after it.",
      request: { params: IdParam },
      responses: {
        200: json(PromptReportBody, 'The report', reportExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const prompt = await platform.getPrompt(c.req.valid('param').id, c.var.userId);
      // The earlier prompts of its conversation: the report says how full the context is after it.
      const prompts = await platform.conversations.prompts(prompt.conversationId, c.var.userId);
      const index = prompts.findIndex((p) => p.id === prompt.id);
      const history = prompts.slice(0, index < 0 ? prompts.length : index);
      const budget = context.budget?.(prompt);
      const options = {
        history,
        estimate: context.estimate?.(prompt),
        ...(budget !== undefined && { budget }),
      };
      return c.json(promptReport(prompt, options), 200);
    },
  );
}
