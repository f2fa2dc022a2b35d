import { createRoute } from '@hono/zod-openapi';
import type { Platform, Prompt, ToolOutput } from '@tessera/core';
import { Accepted, IdParam, PendingApprovals, RejectBody } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

/** Tool calls waiting for your approval: list them, approve or reject one (the prompt resumes). */
export function approvalRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals',
      operationId: 'listApprovals',
      summary: 'Your tool calls waiting for approval, across conversations',
      responses: { 200: json(PendingApprovals, 'Pending approvals'), 401: errors[401] },
    }),
    async (c) => {
      const waiting = await platform.store.prompts.listByState('waiting_for_approval');
      const items = (waiting as Prompt[])
        .filter((prompt) => prompt.userId === c.var.userId)
        .flatMap((prompt) =>
          prompt.output
            .filter((o): o is ToolOutput => o.type === 'tool' && o.result?.type === 'pending')
            .map((o) => ({
              toolCallId: o.id,
              promptId: prompt.id,
              conversationId: prompt.conversationId,
              toolId: o.toolId,
              input: o.input,
              reason: o.result?.type === 'pending' ? o.result.reason : '',
              createdAt: o.createdAt,
            })),
        );
      return c.json({ items }, 200);
    },
  );

  /** Decides the call: the prompt resumes in the background; the answer is the prompt, resumed. */
  const decide = async (id: string, userId: string, approve: boolean, reason?: string) => {
    const run = await platform.decide(id, { userId, approve, reason });
    run.done.catch(() => {}); // the loop records its own failures
    return { prompt: run.prompt };
  };
  const decided = {
    202: json(Accepted, 'The prompt, resumed'),
    400: errors[400],
    401: errors[401],
    404: errors[404],
    409: errors[409],
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tool-calls/{id}/approve',
      operationId: 'approveToolCall',
      summary: 'Approve a pending tool call: it runs once and the prompt resumes',
      request: { params: IdParam },
      responses: decided,
    }),
    async (c) => c.json(await decide(c.req.valid('param').id, c.var.userId, true), 202),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tool-calls/{id}/reject',
      operationId: 'rejectToolCall',
      summary: 'Reject a pending tool call: the model reads why and the prompt resumes',
      request: {
        params: IdParam,
        // Optional: without a body (or `{}`), the model reads that the user rejected the call.
        body: { content: { 'application/json': { schema: RejectBody } }, required: false },
      },
      responses: { ...decided, 413: errors[413], 415: errors[415] },
    }),
    async (c) => {
      const { reason } = c.req.valid('json') ?? {};
      return c.json(await decide(c.req.valid('param').id, c.var.userId, false, reason), 202);
    },
  );
}
