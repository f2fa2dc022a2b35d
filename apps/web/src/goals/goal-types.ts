import type { components } from '../api-types.ts';

/** A goal as the server's goal routes give it (`/api/conversations/{id}/goal`, generated from its OpenAPI). */
export type Goal = components['schemas']['Goal'];
export type GoalState = components['schemas']['GoalState'];
export type GoalBudgets = components['schemas']['GoalBudgets'];
export type GoalUsage = Goal['used'];
export type Criterion = Goal['criteria'][number];
export type Verify = Criterion['verify'];
export type Evidence = NonNullable<Criterion['evidence']>;
export type PauseKind = NonNullable<Goal['pause']>['kind'];
export type ProgressEntry = Goal['progress'][number];
export type ProgressKind = ProgressEntry['kind'];
export type CreateGoalInput = components['schemas']['CreateGoal'];
export type CriterionInput = CreateGoalInput['criteria'][number];
export type GoalRevision = components['schemas']['ReviseGoal'];

/**
 * The `goal-checkpoint` output of a goal's prompts (the record's checkpoint line): as the goals contract and the
 * plugin's output.ts define it (the OpenAPI document does not describe each output variant's fields).
 */
export type GoalCheckpoint = {
  type: 'goal-checkpoint';
  goalId: string;
  state: GoalState;
  objective: string;
  criteria: { id: string; description: string; met: boolean }[];
  plan?: string;
  progress: ProgressEntry[];
  used: GoalUsage;
  budgets: GoalBudgets;
  reason?: string;
};

/** The goal routes' calls (api.ts's `goalCalls`). */
export interface GoalApi {
  /** The conversation's latest goal, or undefined when it never had one (404). */
  goal(conversationId: string): Promise<Goal | undefined>;
  createGoal(conversationId: string, input: CreateGoalInput): Promise<Goal>;
  reviseGoal(conversationId: string, changes: GoalRevision): Promise<Goal>;
  pauseGoal(conversationId: string, reason?: string): Promise<Goal>;
  resumeGoal(conversationId: string, budgets?: GoalBudgets): Promise<Goal>;
  stopGoal(conversationId: string, reason?: string): Promise<Goal>;
  confirmCriterion(conversationId: string, criterionId: string, note?: string): Promise<Goal>;
}
