import { createRoute } from '@hono/zod-openapi';
import type { Platform, Prompt, ToolOutput } from '@tessera/core';
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import { Accepted, IdParam, PendingApprovals, RejectBody } from '../schemas.ts';
import { type Api, errors, json, parseOr400 } from './shared.ts';

/** Tool calls waiting for your approval: list them, approve or reject one (the prompt resumes). */
export function approvalRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals',
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

  for (const decision of ['approve', 'reject'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/tool-calls/{id}/${decision}`,
        summary:
          decision === 'approve'
            ? 'Approve a pending tool call: it runs once and the prompt resumes'
            : 'Reject a pending tool call: the model reads why and the prompt resumes',
        request: { params: IdParam },
        responses: {
          202: json(Accepted, 'The prompt, resumed'),
          400: errors[400],
          401: errors[401],
          404: errors[404],
          409: errors[409],
        },
      }),
      async (c) => {
        const reason =
          decision === 'reject'
            ? (await readOptionalJson(await c.req.text(), RejectBody))?.reason
            : undefined;
        const run = await platform.decide(c.req.valid('param').id, {
          userId: c.var.userId,
          approve: decision === 'approve',
          reason,
        });
        run.done.catch(() => {});
        return c.json({ prompt: run.prompt }, 202);
      },
    );
  }
}

/** An optional JSON body: absent is fine, present must be valid. */
async function readOptionalJson<T extends z.ZodType>(
  text: string,
  schema: T,
): Promise<z.output<T> | undefined> {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HTTPException(400, { message: 'The body is not valid JSON.' });
  }
  return parseOr400(schema, value);
}
