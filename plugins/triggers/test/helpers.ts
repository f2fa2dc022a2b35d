import { type AnyPlugin, createTool, definePlugin, type Prompt, type Store } from '@tessera/core';
import { createTestPlatform, reply, type ScriptedTurn } from '@tessera/testing';
import { z } from 'zod';
import {
  createTriggerScheduler,
  ManualClock,
  type SchedulerOptions,
  triggerService,
  triggersPlugin,
} from '../src/index.ts';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Turns that answer every prompt a trigger starts with a short text. */
export const answers = (count: number, text = 'Done.'): ScriptedTurn[] =>
  Array.from({ length: count }, () => reply(text));

/**
 * A test platform with the triggers plugin on a manual clock, its service and a scheduler (not started).
 * The scheduler's rescan is a day, so timers show it sleeping until the next due fire.
 */
export async function setup(
  options: {
    now?: string;
    script?: ScriptedTurn[];
    store?: Store;
    defaultTimeZone?: string;
    scheduler?: SchedulerOptions;
    plugins?: AnyPlugin[];
    maxTriggersPerUser?: number;
  } = {},
) {
  const clock = new ManualClock(options.now ?? '2026-11-22T09:30:00Z');
  const plugin = triggersPlugin({
    clock,
    defaultTimeZone: options.defaultTimeZone ?? 'UTC',
    ...(options.maxTriggersPerUser && { maxTriggersPerUser: options.maxTriggersPerUser }),
  });
  const t = await createTestPlatform({
    plugins: [plugin, ...(options.plugins ?? [])],
    ...(options.script && { script: options.script }),
    ...(options.store && { store: options.store }),
  });
  const scheduler = createTriggerScheduler(t.platform, { rescanEveryMs: DAY, ...options.scheduler });
  const service = triggerService(t.platform.services);
  const owner = { userId: t.userId, conversationId: t.conversation.id };
  const prompts = (): Promise<Prompt[]> => t.platform.conversations.prompts(t.conversation.id, t.userId);
  return { ...t, clock, plugin, scheduler, service, owner, prompts };
}

/** The tool outputs of a prompt. */
export const toolOutputs = (prompt: Prompt) => prompt.output.filter((o) => o.type === 'tool');

/** A plugin whose tool always waits for approval: it keeps a conversation busy. */
export const deploy = definePlugin({
  id: 'deploy',
  tools: [
    createTool({
      id: 'deploy.run',
      description: 'Deploys to production.',
      input: z.object({}),
      requireApproval: { required: true, reason: 'Deploys to production.' },
      invoke: () => 'deployed',
    }),
  ],
});
