import { createRoute } from '@hono/zod-openapi';
import { ApprovalInputError, type Platform, type ToolCallDecision, type ToolOutput } from '@tessera/core';
import { tags } from '../api-reference.ts';
import { ApprovalPaths } from '../approval-paths.ts';
import { HttpError } from '../errors.ts';
import { acceptedExample, pendingApprovalExample, suspendedApprovalExample } from '../examples.ts';
import { checkArguments, tooLargeResponse } from '../input-limit.ts';
import { AnswerBody, ApproveBody } from '../loop-control-schemas.ts';
import { Accepted, IdParam, PageQuery, PendingApprovals, RejectBody } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';
import { waitingPageDescription, waitingPrompts } from './waiting-prompts.ts';

/**
 * Tool calls waiting for your approval: list them, approve, reject, answer (a result in the tool's place) or
 * skip one (the prompt resumes). Edited arguments or an answer longer than `maxInputChars` as JSON are a 413.
 */
export function approvalRoutes(
  app: Api,
  platform: Platform,
  { maxInputChars }: { maxInputChars: number },
): void {
  listApprovals(app, platform);
  decisionRoutes(app, platform, maxInputChars);
  answerRoutes(app, platform, maxInputChars);
}

function listApprovals(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals',
      operationId: 'listApprovals',
      tags: tags('approvals'),
      summary: 'List the calls waiting for your approval',
      description: `Your tool calls waiting for approval, across all your conversations, sub-agents' included: each with its \`path\` from your prompt down to it (parent → child → call). A call that started and then waits on a sub-agent has \`startedAt\` and \`waitsOn\` (the child prompt): decide the child's call and it goes on by itself. ${waitingPageDescription('pending calls')}`,
      request: { query: PageQuery },
      responses: {
        200: json(PendingApprovals, 'Pending approvals', {
          items: [suspendedApprovalExample, pendingApprovalExample],
        }),
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
          prompt.output
            .filter((o): o is ToolOutput => o.type === 'tool' && o.result?.type === 'pending')
            .map(async (o) => {
              const waitsOn = await paths.waitsOn(prompt, o);
              return {
                toolCallId: o.id,
                promptId: prompt.id,
                conversationId: prompt.conversationId,
                toolId: o.toolId,
                input: o.input,
                reason: o.result?.type === 'pending' ? o.result.reason : '',
                createdAt: o.createdAt,
                ...(o.startedAt !== undefined && { startedAt: o.startedAt }),
                ...(waitsOn && { waitsOn }),
                path: await paths.path(prompt, o),
              };
            }),
        ),
      );
      return c.json({ items, ...(nextCursor !== undefined && { nextCursor }) }, 200);
    },
  );
}

/** Decides the call: the prompt resumes in the background; the answer is the prompt, resumed. */
const decider = (platform: Platform) => async (id: string, decision: ToolCallDecision) => {
  const run = await platform.decide(id, decision).catch((error: unknown) => {
    // Edited arguments the tool's schema refuses: the call still waits, the issues say what to fix.
    if (ApprovalInputError.is(error)) throw new HttpError(400, error.code, error.message);
    throw error;
  });
  run.done.catch(() => {}); // the loop records its own failures
  return { prompt: run.prompt };
};

/** What every decision on a call answers. */
const decided = {
  202: json(Accepted, 'The prompt, resumed', {
    prompt: { ...acceptedExample.prompt, id: pendingApprovalExample.promptId },
  }),
  400: errors[400],
  401: errors[401],
  404: errors[404],
  409: errors[409],
};

function decisionRoutes(app: Api, platform: Platform, maxInputChars: number): void {
  const decide = decider(platform);
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tool-calls/{id}/approve',
      operationId: 'approveToolCall',
      tags: tags('approvals'),
      summary: 'Approve a tool call',
      description:
        'The call runs once and the prompt resumes; follow it on the event stream. Send `{ "input": {...} }` to run the call with edited arguments: they are validated by the tool\'s schema (a mismatch is a 400 `invalid_approval_input` listing the issues, and the call still waits). The prompt records the model\'s `input` and the approved `editedInput`; the model is sent the approved ones.',
      request: {
        params: IdParam,
        // Optional: without a body (or `{}`), the call runs with the model's arguments.
        body: {
          content: {
            'application/json': { schema: ApproveBody, example: { input: { amount: 50, to: 'Ada' } } },
          },
          required: false,
        },
      },
      responses: {
        ...decided,
        413: tooLargeResponse,
        415: errors[415],
      },
    }),
    async (c) => {
      const edit = c.req.valid('json') ?? {};
      checkArguments(edit.input, maxInputChars);
      const given = 'input' in edit ? { input: edit.input } : {};
      return c.json(
        await decide(c.req.valid('param').id, { userId: c.var.userId, approve: true, ...given }),
        202,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tool-calls/{id}/reject',
      operationId: 'rejectToolCall',
      tags: tags('approvals'),
      summary: 'Reject a tool call',
      description:
        'The call does not run: the model reads that you rejected it, with your `reason` if you give one, and the prompt resumes (its answer streams on the event stream).',
      request: {
        params: IdParam,
        // Optional: without a body (or `{}`), the model reads that the user rejected the call.
        body: {
          content: { 'application/json': { schema: RejectBody, example: { reason: 'Not this month.' } } },
          required: false,
        },
      },
      responses: { ...decided, 413: errors[413], 415: errors[415] },
    }),
    async (c) => {
      const { reason } = c.req.valid('json') ?? {};
      return c.json(
        await decide(c.req.valid('param').id, { userId: c.var.userId, approve: false, reason }),
        202,
      );
    },
  );
}

/** The decisions that do not run the call either: answer it in the tool's place, or skip it. */
function answerRoutes(app: Api, platform: Platform, maxInputChars: number): void {
  const decide = decider(platform);
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tool-calls/{id}/answer',
      operationId: 'answerToolCall',
      tags: tags('approvals'),
      summary: 'Answer a tool call with its result',
      description:
        "The call does not run: `answer` (any JSON value) is recorded as its result (`{ type: 'success', output: answer }`, the approval's `decision` `answered`), the model is sent it with a note that you gave it in the tool's place, and the prompt resumes. An answer over `limits.maxInputChars` characters as JSON is a 413 `input_too_large`, one nested deeper than 64 levels or without `answer` a 400; the call still waits.",
      request: {
        params: IdParam,
        body: {
          content: {
            'application/json': {
              schema: AnswerBody,
              example: { answer: { balance: 120, currency: 'EUR' }, reason: 'I checked it myself.' },
            },
          },
          required: true,
        },
      },
      responses: { ...decided, 413: tooLargeResponse, 415: errors[415] },
    }),
    async (c) => {
      const { answer, reason } = c.req.valid('json');
      checkArguments(answer, maxInputChars, 'The answer');
      const decision = { userId: c.var.userId, answer, ...(reason !== undefined && { reason }) };
      return c.json(await decide(c.req.valid('param').id, decision), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tool-calls/{id}/skip',
      operationId: 'skipToolCall',
      tags: tags('approvals'),
      summary: 'Skip a tool call',
      description:
        "The call does not run: its result is an error `skipped` (the approval's `decision` `skipped`) telling the model you chose to skip it and to go on without it (with your `reason` if you give one; unlike a rejection, it is not told to try another way), and the prompt resumes.",
      request: {
        params: IdParam,
        // Optional: without a body (or `{}`), the model reads only that the user skipped the call.
        body: {
          content: { 'application/json': { schema: RejectBody, example: { reason: 'Not needed today.' } } },
          required: false,
        },
      },
      responses: { ...decided, 413: errors[413], 415: errors[415] },
    }),
    async (c) => {
      const { reason } = c.req.valid('json') ?? {};
      const decision = { userId: c.var.userId, skip: true as const, ...(reason !== undefined && { reason }) };
      return c.json(await decide(c.req.valid('param').id, decision), 202);
    },
  );
}
