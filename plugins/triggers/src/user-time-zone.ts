import { createTriggerInput, updateTriggerInput } from './inputs.ts';
import type { TriggersRuntime } from './runtime.ts';
import { canonicalTimeZone } from './time.ts';

/**
 * The user's time zone a prompt carries in `metadata.timeZone` (an app sets it, e.g. from the browser), if it
 * is one this runtime knows; else undefined (the plugin's `defaultTimeZone` applies).
 */
export function userTimeZoneOf(metadata: Record<string, unknown> | undefined): string | undefined {
  const zone = metadata?.timeZone;
  return typeof zone === 'string' && zone.length <= 100 ? canonicalTimeZone(zone) : undefined;
}

/** The runtime with another default zone: what the tools of a prompt whose user is in `timeZone` use. */
export function runtimeInZone(runtime: TriggersRuntime, timeZone: string): TriggersRuntime {
  const context = { clock: runtime.clock, defaultTimeZone: timeZone };
  return {
    ...runtime,
    defaultTimeZone: timeZone,
    inputs: { create: createTriggerInput(context), update: updateTriggerInput(context) },
  };
}

/**
 * The schedule with its zone written out: the service resolves a schedule that names none in the plugin's
 * default zone, not the user's.
 */
export function withTimeZone<T extends { timeZone?: string | undefined }>(schedule: T, timeZone: string): T {
  return schedule.timeZone === undefined ? { ...schedule, timeZone } : schedule;
}
