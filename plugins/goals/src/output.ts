import { defineOutput, type OutputOf } from '@tessera/core';
import { z } from 'zod';
import { GOAL_STATES, PROGRESS_KINDS, type StoredGoal } from './types.ts';

const Usage = z.object({
  modelCalls: z.number(),
  totalTokens: z.number(),
  cost: z.number(),
  prompts: z.number(),
  wallMs: z.number(),
});

const Budgets = z.object({
  modelCalls: z.number().optional(),
  totalTokens: z.number().optional(),
  cost: z.number().optional(),
  prompts: z.number().optional(),
  wallMs: z.number().optional(),
});

const Entry = z.object({
  at: z.string(),
  promptId: z.string().optional(),
  kind: z.enum(PROGRESS_KINDS),
  text: z.string(),
});

/**
 * A checkpoint of a goal in the record: its state, criteria met or not, plan, the progress entries new since
 * the last checkpoint, budget used. For people (the UI's progress log); the model does not read it (it reads
 * a bounded summary of the goal in its instructions).
 */
export const goalCheckpoint = defineOutput({
  type: 'goal-checkpoint',
  fields: {
    goalId: z.string(),
    state: z.enum(GOAL_STATES),
    objective: z.string(),
    criteria: z.array(z.object({ id: z.string(), description: z.string(), met: z.boolean() })),
    plan: z.string().optional(),
    progress: z.array(Entry),
    used: Usage,
    budgets: Budgets,
    reason: z.string().optional(),
  },
  project: 'skip',
});

export type GoalCheckpointOutput = OutputOf<typeof goalCheckpoint>;

declare module '@tessera/core' {
  interface PromptOutputTypes {
    'goal-checkpoint': OutputOf<typeof goalCheckpoint>;
  }
}

/** The checkpoint output of `goal` now, with `progress` its new entries. */
export function checkpointOf(goal: StoredGoal, progress: StoredGoal['progress']) {
  const reason = goal.pause?.reason ?? goal.endReason;
  return {
    type: 'goal-checkpoint' as const,
    goalId: goal.id,
    state: goal.state,
    objective: goal.objective,
    criteria: goal.criteria.map((c) => ({
      id: c.id,
      description: c.description,
      met: c.evidence !== undefined,
    })),
    ...(goal.plan !== undefined && { plan: goal.plan }),
    progress,
    used: goal.used,
    budgets: goal.budgets,
    ...(reason !== undefined && { reason }),
  };
}
