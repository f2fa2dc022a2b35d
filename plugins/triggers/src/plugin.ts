import { CONTEXT_ORDER, definePlugin, type Platform, type Plugin, type PrepareContext } from '@tessera/core';
import {
  createTriggersRuntime,
  type TriggersOptions,
  type TriggersRuntime,
  TriggersRuntimeToken,
} from './runtime.ts';
import { type SchedulerOptions, TriggerScheduler } from './scheduler.ts';
import { formatInstant } from './time.ts';
import { type TriggerTools, triggerTools } from './tools.ts';
import type { Trigger } from './trigger.ts';
import { triggerIdOf } from './trigger-id-of.ts';
import { triggerService } from './trigger-service.ts';
import { runtimeInZone, userTimeZoneOf } from './user-time-zone.ts';

export const TRIGGERS_PLUGIN_ID = 'triggers';

export type TriggersPluginOptions = TriggersOptions & {
  /**
   * How the scheduler that `platform.open()` starts fires triggers (its failures go to
   * `PlatformOptions.onPluginError` unless `onError` is given); `false` runs none in this process, e.g. when
   * other processes over the same store fire the triggers.
   */
  scheduler?: SchedulerOptions | false;
};

function firedContext(trigger: Trigger | undefined, id: string, when: string | undefined): string {
  if (!trigger) {
    return `This turn was started by the trigger ${id}, which has since been deleted. There is nothing to do; do not act on your own.`;
  }
  return [
    'This turn was started by a trigger, not by a message from the user; the user may not be reading right now.',
    `Trigger: “${trigger.name}” (${trigger.id}), ${when}.`,
    `Instruction: ${trigger.instruction}`,
    'Carry out the instruction now, in this conversation. Do not ask questions you need answered first. Triggers cannot be created from here.',
  ].join('\n');
}

/**
 * Offers the tools of a user's turn, or, in a turn a trigger started, its instruction and no way to create more.
 * A prompt that carries the user's time zone (`metadata.timeZone`) gets tools whose schedules default to it,
 * and the model is told the user's local time.
 */
async function prepare(
  runtime: TriggersRuntime,
  toolsIn: (timeZone: string | undefined) => TriggerTools,
  ctx: PrepareContext<Record<string, never>>,
): Promise<void> {
  const now = runtime.clock.now();
  const userZone = userTimeZoneOf(ctx.prompt.metadata);
  const tools = toolsIn(userZone);
  const firedBy = triggerIdOf(ctx.prompt.metadata);
  if (firedBy) {
    const service = triggerService(ctx.services);
    const trigger = await service.find(ctx.userId, firedBy);
    ctx.context.push({ text: firedContext(trigger, firedBy, trigger && service.describe(trigger)) });
    ctx.tools.push(tools.list, tools.delete);
    return;
  }
  ctx.tools.push(tools.create, tools.list, tools.update, tools.delete);
  const zone = userZone ?? runtime.defaultTimeZone;
  const whose = userZone
    ? "the user's time zone (schedules use it unless they name another)"
    : 'the default time zone';
  ctx.context.push({
    text: `Triggers: you can schedule work for later with trigger.create (the user approves it). It is now ${formatInstant(now, zone, now)} in ${zone}, ${whose}.`,
    // The time changes every minute: keep it after the stable instructions, for prompt caching.
    order: CONTEXT_ORDER.volatile,
  });
}

/**
 * The triggers plugin: tools to create, list, change and delete triggers, the context of the turns they
 * start, and the scheduler that fires them, which `platform.open()` starts and `platform.close()` stops.
 */
export function triggersPlugin(options: TriggersPluginOptions = {}): Plugin<Record<string, never>> {
  const { scheduler: schedulerOptions, ...runtimeOptions } = options;
  const runtime = createTriggersRuntime(runtimeOptions);
  const tools = triggerTools(runtime);
  /** The tools of prompts whose user is in another zone than the default, made once per zone. */
  const zonedTools = new Map<string, TriggerTools>();
  const toolsIn = (zone: string | undefined): TriggerTools => {
    if (zone === undefined || zone === runtime.defaultTimeZone) return tools;
    const known = zonedTools.get(zone);
    if (known) return known;
    const zoned = triggerTools(runtimeInZone(runtime, zone));
    zonedTools.set(zone, zoned);
    return zoned;
  };
  /** One scheduler per platform that opened the plugin (tests run several "processes" in one). */
  const schedulers = new Map<Platform, TriggerScheduler>();
  return definePlugin({
    id: TRIGGERS_PLUGIN_ID,
    services: (container) => container.register(TriggersRuntimeToken, { useValue: runtime }),
    prepare: (ctx) => prepare(runtime, toolsIn, ctx),
    start: async ({ platform, reportError }) => {
      if (schedulerOptions === false) return;
      const scheduler = new TriggerScheduler(platform, { onError: reportError, ...schedulerOptions });
      schedulers.set(platform, scheduler);
      await scheduler.start();
    },
    // Stops firing and waits for the store work in flight; prompts it started are the platform's to end.
    stop: async ({ platform }) => {
      await schedulers.get(platform)?.stop();
      schedulers.delete(platform);
    },
    // A deleted conversation's triggers go with it (the scheduler would otherwise end them at their next fire).
    conversationDeleted: async ({ conversationId, userId, services }) => {
      const service = triggerService(services);
      for (const trigger of await service.list(userId, { conversationId })) {
        await service.delete(userId, trigger.id);
      }
    },
  });
}
