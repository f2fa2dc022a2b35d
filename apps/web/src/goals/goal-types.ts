/**
 * A goal as the server's goal routes give it (issue 32's contract, /api/conversations/{id}/goal). Defined here
 * from the contract until the generated api-types.ts has the goal schemas; then these become aliases of them.
 */
export type GoalState = 'active' | 'paused' | 'completed' | 'stopped' | 'budget_exhausted';
export type PauseKind = 'user' | 'approval' | 'doom_loop' | 'blocker' | 'stall' | 'waiting';
export type Evidence = {
  at: string;
  by: 'check' | 'human';
  summary: string;
  promptId?: string;
  toolCallId?: string;
  decidedBy?: string;
};
export type Verify = { kind: 'check'; toolId: string } | { kind: 'human' };
export type Criterion = {
  id: string;
  description: string;
  verify: Verify;
  evidence?: Evidence;
  lastCheck?: { at: string; passed: boolean; summary: string };
};
export type GoalBudgets = {
  modelCalls?: number;
  totalTokens?: number;
  cost?: number;
  prompts?: number;
  wallMs?: number;
};
export type GoalUsage = {
  modelCalls: number;
  totalTokens: number;
  cost: number;
  prompts: number;
  wallMs: number;
};
export type ProgressKind =
  | 'plan'
  | 'progress'
  | 'evidence'
  | 'check_failed'
  | 'stall'
  | 'paused'
  | 'resumed'
  | 'revised'
  | 'budget'
  | 'completed'
  | 'stopped';
export type ProgressEntry = { at: string; promptId?: string; kind: ProgressKind; text: string };
export type Goal = {
  id: string;
  conversationId: string;
  userId: string;
  objective: string;
  criteria: Criterion[];
  budgets: GoalBudgets;
  used: GoalUsage;
  stallLimit: number;
  stalls: number;
  state: GoalState;
  pause?: { kind: PauseKind; reason: string; promptId?: string; wakeAt?: string };
  endReason?: string;
  plan?: string;
  progress: ProgressEntry[];
  turn: number;
  version: number;
  createdAt: string;
  updatedAt: string;
};
export type CriterionInput = { description: string; verify?: Verify };
export type CreateGoalInput = {
  objective: string;
  criteria: CriterionInput[];
  budgets?: GoalBudgets;
  stallLimit?: number;
  start?: boolean;
};
export type GoalRevision = Partial<
  Pick<CreateGoalInput, 'objective' | 'criteria' | 'budgets' | 'stallLimit'>
>;

/** The `goal-checkpoint` output of a goal's prompts (the record's checkpoint line). */
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
