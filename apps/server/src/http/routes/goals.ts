import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { type GoalService, goalService } from '@tessera/plugin-goals';
import { tags } from '../api-reference.ts';
import { createGoalExample, goalExample, newGoalExample } from '../examples.ts';
import {
  ConfirmCriterionBody,
  CreateGoalBody,
  CriterionParams,
  GoalListQuery,
  GoalPage,
  GoalReasonBody,
  GoalSchema,
  ResumeGoalBody,
  ReviseGoalBody,
} from '../goal-schemas.ts';
import { checkInput, tooLargeResponse } from '../input-limit.ts';
import { IdParam } from '../schemas.ts';
import { type Api, body, errors, json } from './shared.ts';

/** What a change to a goal may be refused with. */
const refusals = {
  400: errors[400],
  401: errors[401],
  404: errors[404],
  409: errors[409],
  413: tooLargeResponse,
  415: errors[415],
};

/** The body of a route whose body is optional (none, or `{}`, is the same), with its example. */
const optionalBody = <T extends Parameters<typeof json>[0]>(schema: T, example: unknown) => ({
  body: { content: { 'application/json': { schema, example } }, required: false },
});

const goalPath = '/api/conversations/{id}/goal';

/**
 * A conversation's goal, and the user's goals: the goals plugin's service over HTTP. Every route is the
 * caller's own: the conversation is read as theirs first (another user's is a 404, as an unknown one), and the
 * service checks it again. The texts the model reads (objective, criteria, reasons, notes) are bounded by the
 * schemas and by `limits.maxInputChars`.
 */
export function goalRoutes(app: Api, platform: Platform, { maxInputChars }: { maxInputChars: number }): void {
  const kit: Kit = {
    goals: () => goalService(platform.services),
    own: async (conversationId, userId) => {
      await platform.conversations.get(conversationId, userId);
    },
    texts: (values) => {
      for (const value of values) checkInput(value, maxInputChars, 'A text of the goal');
    },
  };
  readRoutes(app, kit);
  changeRoutes(app, kit);
  actionRoutes(app, kit);
  confirmRoute(app, kit);
}

/** What every goal route needs. */
type Kit = {
  goals: () => GoalService;
  /** The conversation, if it is the caller's: a NotFoundError (404) otherwise, before the plugin is asked. */
  own: (conversationId: string, userId: string) => Promise<void>;
  /** Each text the model reads, within `limits.maxInputChars` (a 413 otherwise). */
  texts: (values: readonly (string | undefined)[]) => void;
};

/** The user's goals, and a conversation's. */
function readRoutes(app: Api, { goals, own }: Kit): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/goals',
      operationId: 'listGoals',
      tags: tags('goals'),
      summary: 'List your goals',
      description:
        'Your goals across your conversations (live and ended), newest first, in pages of `limit` (at most 200; 50 unless given). `state` keeps those in one state: a page may then hold fewer, even none, while `nextCursor` says more follow.',
      request: { query: GoalListQuery },
      responses: {
        200: json(GoalPage, 'Goals', { items: [goalExample] }),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => {
      const { limit, cursor, state } = c.req.valid('query');
      const page = await goals().list(c.var.userId, {
        limit,
        ...(cursor !== undefined && { cursor }),
        ...(state !== undefined && { state }),
      });
      return c.json(page, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: goalPath,
      operationId: 'getGoal',
      tags: tags('goals'),
      summary: "Read a conversation's goal",
      description:
        "The conversation's latest goal, live or ended: its criteria with their evidence, plan, budgets and use, state (and why it is paused or ended), and the latest progress. A 404 if it has none.",
      request: { params: IdParam },
      responses: {
        200: json(GoalSchema, 'The goal', goalExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const conversationId = c.req.valid('param').id;
      await own(conversationId, c.var.userId);
      return c.json(await goals().get(conversationId, c.var.userId), 200);
    },
  );
}

/** Set a goal, and revise it. */
function changeRoutes(app: Api, { goals, own, texts }: Kit): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: goalPath,
      operationId: 'createGoal',
      tags: tags('goals'),
      summary: 'Set a goal',
      description:
        "The agent works toward `objective` over as many prompts as it takes, until every criterion has evidence (a check tool passed, or you confirmed it), a budget is used up, or you stop it. Without `budgets`, the default budgets of the goals plugin apply (`{ prompts: 100 }` unless the server configures others). Unless `start` is `false`, its first prompt starts now (follow it on the event stream); with `false` it waits, active, for the conversation's next prompt to end. A check criterion's `toolId` must be a tool the conversation offers (not a `goal.*` one), else a 400. A conversation has one live (active or paused) goal at a time: another is a 409. A text over `limits.maxInputChars` is a 413.",
      request: { params: IdParam, ...body(CreateGoalBody, createGoalExample) },
      responses: {
        201: json(GoalSchema, 'The goal, created', newGoalExample),
        ...refusals,
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const conversationId = c.req.valid('param').id;
      texts([input.objective, ...input.criteria.map((criterion) => criterion.description)]);
      await own(conversationId, c.var.userId);
      return c.json(await goals().create(conversationId, c.var.userId, input), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: goalPath,
      operationId: 'reviseGoal',
      tags: tags('goals'),
      summary: 'Revise a goal',
      description:
        "Changes a live goal's objective, criteria, budgets or stall limit; the agent reads the revision at its next prompt. New criteria replace the list, and one whose description and verify are unchanged keeps its evidence. An ended goal is a 409.",
      request: {
        params: IdParam,
        ...body(ReviseGoalBody, { budgets: { modelCalls: 80, prompts: 20 } }),
      },
      responses: {
        200: json(GoalSchema, 'The revised goal', {
          ...goalExample,
          budgets: { modelCalls: 80, prompts: 20 },
          version: 8,
        }),
        ...refusals,
      },
    }),
    async (c) => {
      const changes = c.req.valid('json');
      const conversationId = c.req.valid('param').id;
      texts([changes.objective, ...(changes.criteria ?? []).map((criterion) => criterion.description)]);
      await own(conversationId, c.var.userId);
      return c.json(await goals().revise(conversationId, c.var.userId, changes), 200);
    },
  );
}

/** Pause, resume and stop. */
function actionRoutes(app: Api, { goals, own, texts }: Kit): void {
  const actions = {
    pause: {
      summary: 'Pause a goal',
      description:
        'An active goal starts no more prompts until you resume it (a prompt running now finishes). `reason` is kept with the pause. A goal that is not active is a 409.',
      body: GoalReasonBody,
      example: { reason: 'Waiting for the staging database.' },
      state: 'paused',
    },
    resume: {
      summary: 'Resume a goal',
      description:
        'A paused goal, or one that ran out of budget, goes on: its next prompt starts now. A goal that ran out needs `budgets` that raise the one it reached above what it used (a 400 `invalid_input` otherwise); other budgets may grow too. An active, completed or stopped goal is a 409.',
      body: ResumeGoalBody,
      example: { budgets: { modelCalls: 80 } },
      state: 'active',
    },
    stop: {
      summary: 'Stop a goal',
      description:
        'A live goal ends for good (`stopped`, with `reason` as its end reason): it starts no more prompts; a prompt running now finishes. An ended goal is a 409.',
      body: GoalReasonBody,
      example: { reason: 'Done another way.' },
      state: 'stopped',
    },
  } as const;

  for (const action of ['pause', 'resume', 'stop'] as const) {
    const { summary, description, body: schema, example, state } = actions[action];
    app.openapi(
      createRoute({
        method: 'post',
        path: `${goalPath}/${action}`,
        operationId: `${action}Goal`,
        tags: tags('goals'),
        summary,
        description,
        // Optional: without a body (or `{}`), no reason (or no larger budgets).
        request: { params: IdParam, ...optionalBody(schema, example) },
        responses: {
          200: json(GoalSchema, 'The goal', { ...goalExample, state }),
          ...refusals,
        },
      }),
      async (c) => {
        const given = (c.req.valid('json') ?? {}) as { reason?: string; budgets?: Record<string, number> };
        const conversationId = c.req.valid('param').id;
        const { userId } = c.var;
        texts([given.reason]);
        await own(conversationId, userId);
        const service = goals();
        const goal =
          action === 'resume'
            ? await service.resume(conversationId, userId, given.budgets ? { budgets: given.budgets } : {})
            : await service[action](conversationId, userId, given.reason);
        return c.json(goal, 200);
      },
    );
  }
}

/** A person's evidence for a criterion. */
function confirmRoute(app: Api, { goals, own, texts }: Kit): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: `${goalPath}/criteria/{criterionId}/confirm`,
      operationId: 'confirmGoalCriterion',
      tags: tags('goals'),
      summary: 'Confirm a criterion',
      description:
        "Records your evidence for a criterion (`note`: what you saw), usually one verified by a person (`verify.kind: human`). When every criterion then has evidence, the goal completes. An unknown criterion is a 404, an ended goal's a 409.",
      request: {
        params: CriterionParams,
        ...optionalBody(ConfirmCriterionBody, { note: 'Read the fix: the rounding is right now.' }),
      },
      responses: {
        200: json(GoalSchema, 'The goal', {
          ...goalExample,
          state: 'completed',
          endReason: 'Every criterion has evidence.',
          criteria: [
            goalExample.criteria[0],
            {
              ...goalExample.criteria[1],
              evidence: {
                at: '2026-11-27T06:31:40.000Z',
                by: 'human',
                summary: 'Read the fix: the rounding is right now.',
                decidedBy: 'ada',
              },
            },
          ],
        }),
        ...refusals,
      },
    }),
    async (c) => {
      const { note } = c.req.valid('json') ?? {};
      const { id: conversationId, criterionId } = c.req.valid('param');
      texts([note]);
      await own(conversationId, c.var.userId);
      return c.json(await goals().confirm(conversationId, c.var.userId, criterionId, note), 200);
    },
  );
}
