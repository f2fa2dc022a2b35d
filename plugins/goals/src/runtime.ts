import { DefinitionError, type DependencyContainer, type InjectionToken, type Plugin } from '@tessera/core';
import { z } from 'zod';
import { parseBudgets } from './inputs.ts';
import type { GoalBudgets } from './types.ts';

export type GoalsOptions = {
  /** The stall limit of goals created without one (default 3). */
  defaultStallLimit?: number;
  /**
   * How often `start()`'s sweep looks again for active goals that nothing drives (a process died between a
   * prompt's end and the next prompt's start), in ms; `false`: only once, at start (default 60,000).
   */
  sweepEveryMs?: number | false;
  /**
   * Budgets every goal gets unless its own input sets them (default `{ prompts: 100 }`): without a budget, a
   * goal whose model keeps doing work would run forever. `{}` gives none.
   */
  defaultBudgets?: GoalBudgets;
  /**
   * The most live (active or paused) goals a user may have at once (default 20): each runs prompts on its
   * own, and the sweep reads every live goal. One more is refused (`ConflictError`) until one ends.
   */
  maxLiveGoalsPerUser?: number;
  /** Where time comes from (tests pass their own). */
  now?: () => Date;
};

/** What the plugin's hooks, tools, service and driver share: one per plugin instance. */
export type GoalsRuntime = {
  defaultStallLimit: number;
  defaultBudgets: GoalBudgets;
  maxLiveGoalsPerUser: number;
  sweepEveryMs: number | false;
  now: () => Date;
  /** ISO time now. */
  iso: () => string;
  /** The plugin this runtime belongs to (set by `goalsPlugin()`), whose conversation state marks goals. */
  plugin?: Plugin<GoalsState>;
};

/**
 * The plugin's state in a conversation: `goal` once the conversation has had a goal (set before its first
 * goal is written, never taken back). The loop reads it with the conversation, so a prompt of a conversation
 * that never had a goal reads no goal record at all; a continuation (`metadata.goal`) always reads its goal.
 */
export const GoalsState = z.object({ goal: z.literal(true).optional() }).default({});
export type GoalsState = z.infer<typeof GoalsState>;

export const GoalsRuntimeToken: InjectionToken<GoalsRuntime> = Symbol.for('tessera.goals.runtime');

export function createGoalsRuntime(options: GoalsOptions = {}): GoalsRuntime {
  const defaultStallLimit = options.defaultStallLimit ?? 3;
  if (!Number.isInteger(defaultStallLimit) || defaultStallLimit < 1 || defaultStallLimit > 20) {
    throw new DefinitionError(`Plugin 'goals': defaultStallLimit must be an integer from 1 to 20.`);
  }
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  if (sweepEveryMs !== false && (!Number.isInteger(sweepEveryMs) || sweepEveryMs < 1)) {
    throw new DefinitionError(`Plugin 'goals': sweepEveryMs must be a positive integer or false.`);
  }
  const now = options.now ?? (() => new Date());
  let defaultBudgets: GoalBudgets;
  try {
    defaultBudgets = parseBudgets(options.defaultBudgets ?? { prompts: 100 });
  } catch (error) {
    throw new DefinitionError(`Plugin 'goals': defaultBudgets: ${(error as Error).message}`);
  }
  const maxLiveGoalsPerUser = options.maxLiveGoalsPerUser ?? 20;
  if (!Number.isInteger(maxLiveGoalsPerUser) || maxLiveGoalsPerUser < 1 || maxLiveGoalsPerUser > 10_000) {
    throw new DefinitionError(`Plugin 'goals': maxLiveGoalsPerUser must be an integer from 1 to 10,000.`);
  }
  return {
    defaultStallLimit,
    defaultBudgets,
    maxLiveGoalsPerUser,
    sweepEveryMs,
    now,
    iso: () => now().toISOString(),
  };
}

export function runtimeOf(services: DependencyContainer): GoalsRuntime {
  if (!services.isRegistered(GoalsRuntimeToken, true)) {
    throw new DefinitionError(
      'The goals plugin is not in this platform: add goalsPlugin() to PlatformOptions.plugins to use goals.',
    );
  }
  return services.resolve(GoalsRuntimeToken);
}
