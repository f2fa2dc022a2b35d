export { type Clock, ManualClock, systemClock } from './clock.ts';
export { describeCron, describeRule, describeSchedule, type ScheduleEnds } from './describe.ts';
export type { FirePolicy } from './firing.ts';
export {
  type CreateTriggerInput,
  type ScheduleInput,
  TriggerInputError,
  type UpdateTriggerInput,
} from './inputs.ts';
export { TRIGGERS_PLUGIN_ID, type TriggersPluginOptions, triggersPlugin } from './plugin.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-triggers", "options": {...} }`. */
export { triggersPluginFactory as default } from './plugin-factory.ts';
export type { TriggersOptions } from './runtime.ts';
export { nextOccurrence, Schedule } from './schedule.ts';
export {
  createTriggerScheduler,
  type SchedulerOptions,
  type SchedulerPlatform,
  TriggerScheduler,
} from './scheduler.ts';
export {
  MissedFirePolicy,
  QueuedFire,
  RunOutcome,
  Trigger,
  TriggerRun,
  TriggerStatus,
} from './trigger.ts';
export { triggerIdOf } from './trigger-id-of.ts';
export { TRIGGERS_NAMESPACE } from './trigger-records.ts';
export {
  type TriggerChanges,
  type TriggerOwner,
  TriggerService,
  triggerService,
} from './trigger-service.ts';
