import type { DependencyContainer } from '@tessera/core';

/** The platform's service container (`platform.services`), where the plugin's runtime and the store are. */
export type PlatformServices = DependencyContainer;

/** `active`: the platform drives it; `paused`: waits for a person (or a wake-up); the other three are final. */
export const GOAL_STATES = ['active', 'paused', 'completed', 'stopped', 'budget_exhausted'] as const;
export type GoalState = (typeof GOAL_STATES)[number];

/** Why a goal is paused. */
export const PAUSE_KINDS = ['user', 'approval', 'doom_loop', 'blocker', 'stall', 'waiting'] as const;
export type PauseKind = (typeof PAUSE_KINDS)[number];

export const LIVE_STATES: readonly GoalState[] = ['active', 'paused'];
export const isLive = (state: GoalState): boolean => LIVE_STATES.includes(state);

/** What proves a criterion: a check's successful result, or a person's confirmation. */
export type Evidence = {
  /** ISO time. */
  at: string;
  by: 'check' | 'human';
  /** Bounded (≤ 2,000 chars): the check's result as text, or the person's note. */
  summary: string;
  /** The check's call. */
  promptId?: string;
  toolCallId?: string;
  /** The user who confirmed (human). */
  decidedBy?: string;
};

export type CriterionVerify = { kind: 'check'; toolId: string } | { kind: 'human' };

export type Criterion = {
  /** 'c1', 'c2', ... in order. */
  id: string;
  description: string;
  verify: CriterionVerify;
  /** Set once verified; a later failing check does not remove it. */
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

/** What a progress entry says happened. */
export const PROGRESS_KINDS = [
  'plan',
  'progress',
  'evidence',
  'check_failed',
  'stall',
  'paused',
  'resumed',
  'revised',
  'budget',
  'completed',
  'stopped',
] as const;
export type ProgressKind = (typeof PROGRESS_KINDS)[number];

export type ProgressEntry = { at: string; promptId?: string; kind: ProgressKind; text: string };

export type GoalPause = { kind: PauseKind; reason: string; promptId?: string; wakeAt?: string };

export type Goal = {
  /** 'gol_…' */
  id: string;
  conversationId: string;
  userId: string;
  objective: string;
  criteria: Criterion[];
  budgets: GoalBudgets;
  used: GoalUsage;
  /** Prompts in a row without progress before the goal pauses (default 3). */
  stallLimit: number;
  stalls: number;
  state: GoalState;
  pause?: GoalPause;
  /** Why it completed / stopped / ran out of budget. */
  endReason?: string;
  plan?: string;
  /** The latest 50 (the record keeps every checkpoint). */
  progress: ProgressEntry[];
  /** Continuations started so far: a continuation of an older turn never runs. */
  turn: number;
  version: number;
  createdAt: string;
  updatedAt: string;
};

/** A criterion to create: verified by a person unless `verify` names a check tool. */
export type CriterionInput = { description: string; verify?: CriterionVerify };

export type CreateGoalInput = {
  objective: string;
  criteria: CriterionInput[];
  budgets?: GoalBudgets;
  stallLimit?: number;
  /** Start the first prompt at once (default true). */
  start?: boolean;
};

export type GoalChanges = Partial<Pick<CreateGoalInput, 'objective' | 'criteria' | 'budgets' | 'stallLimit'>>;

export type GoalPage = { items: Goal[]; nextCursor?: string };

export type GoalListOptions = { limit?: number; cursor?: string; state?: GoalState };

export interface GoalService {
  /** One live (active or paused) goal per conversation: creating another while one is live is a ConflictError. `start` (default true) starts the first prompt. */
  create(conversationId: string, userId: string, input: CreateGoalInput): Promise<Goal>;
  /** The conversation's latest goal (live or ended); NotFoundError if none or not the user's conversation. */
  get(conversationId: string, userId: string): Promise<Goal>;
  /** The user's goals, newest first, paged like other lists ({ limit ≤ 200, cursor } → { items, nextCursor? }). */
  list(userId: string, page?: GoalListOptions): Promise<GoalPage>;
  /** Objective, criteria (evidence kept for criteria whose description and verify are unchanged), budgets, stallLimit. Live goals only. */
  revise(conversationId: string, userId: string, changes: GoalChanges): Promise<Goal>;
  /** active → paused (kind 'user'). */
  pause(conversationId: string, userId: string, reason?: string): Promise<Goal>;
  /** paused or budget_exhausted → active, with larger budgets if given (a budget_exhausted goal needs budgets above what it used); starts the next prompt. */
  resume(conversationId: string, userId: string, options?: { budgets?: GoalBudgets }): Promise<Goal>;
  /** live → stopped. */
  stop(conversationId: string, userId: string, reason?: string): Promise<Goal>;
  /** Records a person's evidence for a `human` criterion (or any criterion): completes the goal if every criterion then has evidence. */
  confirm(conversationId: string, userId: string, criterionId: string, note?: string): Promise<Goal>;
}

/** What the plugin keeps beside the public goal in its record. */
export type GoalInternal = {
  /** The ids of the latest prompts whose usage and evidence are counted (bounded): counting is exactly once. */
  accounted: string[];
  /** Progress entries ever added, and how many of them are in a checkpoint output already. */
  entries: number;
  checkpointed: number;
  /** The latest check calls counted (bounded): a check's result counts once. */
  checked?: string[];
  /** The trigger that wakes a waiting goal. */
  wakeTriggerId?: string;
};

export type StoredGoal = Omit<Goal, 'version'> & { internal: GoalInternal };
