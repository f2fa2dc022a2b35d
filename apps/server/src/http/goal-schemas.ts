import { BUDGET_MAXIMA, GOAL_STATES, PAUSE_KINDS, PROGRESS_KINDS } from '@tessera/plugin-goals';
import { z } from 'zod';
import { Id, PageQuery } from './schemas.ts';

/**
 * The HTTP shapes of goals (the goals plugin's `GoalService`): what a client sends, strict and bounded as the
 * plugin bounds it, and the goal it gets back.
 */

/** The bounds of what a client gives a goal, as the plugin has them (it checks them too: hostile input). */
export const GOAL_LIMITS = {
  objectiveChars: 4_000,
  criteria: 20,
  descriptionChars: 1_000,
  noteChars: 2_000,
  stallLimit: { min: 1, max: 20 },
  budgets: BUDGET_MAXIMA,
} as const;

export const GoalState = z.enum(GOAL_STATES).meta({
  id: 'GoalState',
  description:
    '`active`: it runs prompts toward its objective; `paused`: waiting (for you, an approval, a blocker, a stall, or a time); `completed`: every criterion has evidence; `stopped`: you (or the agent) ended it; `budget_exhausted`: it used a budget up (resume it with larger budgets).',
});

const PauseKind = z.enum(PAUSE_KINDS);

const Verify = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('check'), toolId: z.string() }),
    z.object({ kind: z.literal('human') }),
  ])
  .meta({
    description:
      '`check`: the tool `toolId` checks it (its result is the evidence); `human`: a person confirms it (`confirmGoalCriterion`).',
  });

const Evidence = z.object({
  at: z.string(),
  by: z.enum(['check', 'human']),
  summary: z
    .string()
    .meta({ description: "The check's result as text, or the person's note (≤ 2,000 characters)." }),
  promptId: z.string().optional(),
  toolCallId: z.string().optional(),
  decidedBy: z.string().optional().meta({ description: 'The user who confirmed it (`by: human`).' }),
});

const Criterion = z.object({
  id: z.string().meta({ description: '`c1`, `c2`, … in order.' }),
  description: z.string(),
  verify: Verify,
  evidence: Evidence.optional().meta({
    description: 'Set once it is verified; a later failing check does not remove it.',
  }),
  lastCheck: z.object({ at: z.string(), passed: z.boolean(), summary: z.string() }).optional(),
});

const Count = (max: number) => z.number().int().positive().max(max);
const budgetFields = {
  modelCalls: Count(GOAL_LIMITS.budgets.modelCalls),
  totalTokens: Count(GOAL_LIMITS.budgets.totalTokens),
  cost: z.number().positive().max(GOAL_LIMITS.budgets.cost),
  prompts: Count(GOAL_LIMITS.budgets.prompts),
  wallMs: Count(GOAL_LIMITS.budgets.wallMs),
};

export const GoalBudgets = z.object(budgetFields).partial().strict().meta({
  id: 'GoalBudgets',
  description:
    "Limits on what the goal may use over all its prompts (each optional): model calls, tokens, cost, prompts and wall-clock milliseconds. Reaching one ends it as `budget_exhausted`. Given, they replace the goal's budgets as a whole.",
});

const GoalUsage = z.object({
  modelCalls: z.number(),
  totalTokens: z.number(),
  cost: z.number(),
  prompts: z.number(),
  wallMs: z.number(),
});

const ProgressEntry = z.object({
  at: z.string(),
  promptId: z.string().optional(),
  kind: z.enum(PROGRESS_KINDS),
  text: z.string(),
});

export const GoalSchema = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    userId: z.string(),
    objective: z.string(),
    criteria: z.array(Criterion),
    budgets: GoalBudgets,
    used: GoalUsage,
    stallLimit: z.number().int().meta({
      description: 'Prompts in a row without progress before the goal pauses (`stall`).',
    }),
    stalls: z.number().int(),
    state: GoalState,
    pause: z
      .object({
        kind: PauseKind,
        reason: z.string(),
        promptId: z.string().optional(),
        wakeAt: z.string().optional(),
      })
      .optional()
      .meta({
        description:
          'Why a paused goal waits: `user` (you paused it), `approval` (a call of `promptId` waits for your decision), `doom_loop`, `blocker`, `stall`, `waiting` (until `wakeAt`).',
      }),
    endReason: z.string().optional().meta({ description: 'Why it completed, stopped or ran out of budget.' }),
    plan: z.string().optional(),
    progress: z.array(ProgressEntry).meta({ description: 'The latest 50 entries, oldest first.' }),
    turn: z.number().int(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: 'Goal',
    description:
      'An objective the agent works toward over as many prompts as it takes, until each criterion has evidence, a budget is used up, or you stop it.',
  });

export const GoalPage = z.object({
  items: z.array(GoalSchema),
  nextCursor: z
    .string()
    .optional()
    .meta({ description: 'Pass as `cursor` for the next page; absent on the last one.' }),
});

export const GoalListQuery = PageQuery.extend({
  state: GoalState.optional().meta({ description: 'Only the goals in this state.' }),
});

const CriterionInput = z
  .object({
    description: z.string().trim().min(1).max(GOAL_LIMITS.descriptionChars),
    verify: z
      .discriminatedUnion('kind', [
        z
          .object({
            kind: z.literal('check'),
            toolId: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'a tool id, e.g. `tests.run`'),
          })
          .strict(),
        z.object({ kind: z.literal('human') }).strict(),
      ])
      .optional()
      .meta({ description: 'How it is verified: by a check tool, or by you (the default, `human`).' }),
  })
  .strict();

const goalFields = {
  objective: z.string().trim().min(1).max(GOAL_LIMITS.objectiveChars).meta({
    description: 'What the agent works toward (the model reads it): at most 4,000 characters.',
  }),
  criteria: z.array(CriterionInput).min(1).max(GOAL_LIMITS.criteria).meta({
    description: 'How to tell it is done: 1 to 20 criteria, each checked by a tool or confirmed by you.',
  }),
  budgets: GoalBudgets,
  stallLimit: z.number().int().min(GOAL_LIMITS.stallLimit.min).max(GOAL_LIMITS.stallLimit.max).meta({
    description: 'Prompts in a row without progress before it pauses (1–20; default 3).',
  }),
};

export const CreateGoalBody = z
  .object({
    ...goalFields,
    budgets: goalFields.budgets.optional(),
    stallLimit: goalFields.stallLimit.optional(),
    start: z.boolean().optional().meta({
      description: 'Start its first prompt now (default `true`); `false` creates it active without running.',
    }),
  })
  .strict()
  .meta({ id: 'CreateGoal' });

export const ReviseGoalBody = z
  .object(goalFields)
  .partial()
  .strict()
  .refine((changes) => Object.keys(changes).length > 0, {
    message: 'Nothing to revise: give objective, criteria, budgets or stallLimit.',
  })
  .meta({
    id: 'ReviseGoal',
    description:
      'What changes (at least one). New criteria replace the list: a criterion whose description and verify are unchanged keeps its evidence.',
  });

/** A reason or a note: empty (or blank) is none, as the plugin reads it. */
const Reason = z.string().max(GOAL_LIMITS.noteChars);
export const GoalReasonBody = z.object({ reason: Reason.optional() }).strict();
export const ResumeGoalBody = z
  .object({
    budgets: GoalBudgets.optional().meta({
      description:
        'Larger limits to go on with: a goal that ran out of budget needs the one it reached above what it used.',
    }),
  })
  .strict();
export const ConfirmCriterionBody = z
  .object({
    note: Reason.optional().meta({ description: 'What you saw (the evidence), at most 2,000 characters.' }),
  })
  .strict();

export const CriterionParams = z.object({ id: Id, criterionId: Id });
