import type { DependencyContainer, InjectionToken } from '@tessera/core';
import { DefinitionError } from '@tessera/core';
import { type Clock, systemClock } from './clock.ts';
import { createTriggerInput, type InputContext, updateTriggerInput } from './inputs.ts';
import { canonicalTimeZone } from './time.ts';

export type TriggersOptions = {
  /** Where time comes from (default: the system clock). Tests pass a `ManualClock`. */
  clock?: Clock;
  /** The time zone of schedules that do not name one (default: UTC). */
  defaultTimeZone?: string;
  /** Runs kept in each trigger's history (default: 20). */
  historyLimit?: number;
  /**
   * The most triggers one user may have, ended ones included (default: 20): each fires prompts on its own,
   * and every listing of the user's triggers reads them all. Creating one more is refused until they delete one.
   */
  maxTriggersPerUser?: number;
};

/** Tells the local scheduler that triggers changed, so it re-plans its sleep at once. */
export class ChangeSignal {
  readonly #listeners = new Set<() => void>();

  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** What the plugin's tools, its service and the scheduler share, one per plugin instance. */
export type TriggersRuntime = InputContext & {
  historyLimit: number;
  maxTriggersPerUser: number;
  changes: ChangeSignal;
  inputs: {
    create: ReturnType<typeof createTriggerInput>;
    update: ReturnType<typeof updateTriggerInput>;
  };
};

export const TriggersRuntimeToken: InjectionToken<TriggersRuntime> = Symbol.for('tessera.triggers.runtime');

export function createTriggersRuntime(options: TriggersOptions = {}): TriggersRuntime {
  const defaultTimeZone = canonicalTimeZone(options.defaultTimeZone ?? 'UTC');
  if (!defaultTimeZone) {
    throw new DefinitionError(`Plugin 'triggers': unknown defaultTimeZone '${options.defaultTimeZone}'.`);
  }
  const historyLimit = options.historyLimit ?? 20;
  if (!Number.isInteger(historyLimit) || historyLimit < 1) {
    throw new DefinitionError(`Plugin 'triggers': historyLimit must be a positive integer.`);
  }
  const maxTriggersPerUser = options.maxTriggersPerUser ?? 20;
  if (!Number.isInteger(maxTriggersPerUser) || maxTriggersPerUser < 1) {
    throw new DefinitionError(`Plugin 'triggers': maxTriggersPerUser must be a positive integer.`);
  }
  const context: InputContext = { clock: options.clock ?? systemClock, defaultTimeZone };
  return {
    ...context,
    historyLimit,
    maxTriggersPerUser,
    changes: new ChangeSignal(),
    inputs: { create: createTriggerInput(context), update: updateTriggerInput(context) },
  };
}

/** The runtime registered by `triggersPlugin()`, or a clear error if the plugin is not in the platform. */
export function runtimeOf(services: DependencyContainer): TriggersRuntime {
  if (!services.isRegistered(TriggersRuntimeToken, true)) {
    throw new DefinitionError(
      'The triggers plugin is not part of this platform: add triggersPlugin() to createPlatform({ plugins }).',
    );
  }
  return services.resolve(TriggersRuntimeToken);
}
