export { continuationId, type GoalMeta, goalMetaOf } from './driver.ts';
export { BUDGET_MAXIMA } from './inputs.ts';
export { type GoalCheckpointOutput, goalCheckpoint } from './output.ts';
export { GOALS_PLUGIN_ID, type GoalsPluginOptions, goalsPlugin } from './plugin.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-goals" }`. */
export { goalsPluginFactory as default } from './plugin-factory.ts';
export { GOALS_NAMESPACE } from './records.ts';
export type { GoalsOptions } from './runtime.ts';
export { goalService } from './service.ts';
export type {
  CreateGoalInput,
  Criterion,
  CriterionInput,
  CriterionVerify,
  Evidence,
  Goal,
  GoalBudgets,
  GoalChanges,
  GoalListOptions,
  GoalPage,
  GoalPause,
  GoalService,
  GoalState,
  GoalUsage,
  PauseKind,
  PlatformServices,
  ProgressEntry,
  ProgressKind,
} from './types.ts';
export { GOAL_STATES, PAUSE_KINDS, PROGRESS_KINDS } from './types.ts';
