import { definePlugin, definePluginFactory, type PromptOutput } from '@tessera/core';
import { z } from 'zod';
import { type CallKeys, detectDoomLoop } from './detect.ts';

const ID = 'doom-loop';

export const DoomLoopOptions = z.object({
  /**
   * How many times in a row the same call (same tool, same arguments), or the same cycle of calls (A, B, A,
   * B, ...), may come before the prompt pauses for the user to continue or stop.
   */
  repeats: z.number().int().min(2).default(3),
});

export type DoomLoopOptions = z.output<typeof DoomLoopOptions>;

/**
 * Its own pauses, and those core recorded with `source: 'doom_loop'` before the check became this plugin:
 * calls before either were seen by the user already.
 */
const isOwnPause = (pause: PromptOutput & { type: 'pause' }) =>
  pause.source === 'doom_loop' || (pause.source === 'plugin' && pause.plugin === ID);

/**
 * Pauses a prompt whose model repeats itself: the same call `repeats` times in a row, or a cycle of calls
 * (up to 8 long) `repeats` times. Built on core's public `betweenRounds` hook, reading the prompt's recorded
 * calls: its pause is core's `pause` output (`source: 'plugin'`, `plugin: 'doom-loop'`), which the user
 * continues (counted afresh from there) or stops. Core runs the hook at every round boundary but the first
 * and the one right after a decision, so a user who continued is asked again only after `repeats` more.
 */
export const doomLoopPlugin = definePluginFactory({
  id: ID,
  options: DoomLoopOptions,
  create: ({ repeats }) => {
    // Each recorded call's key, kept for the plugin's life: a call is compared at many boundaries.
    const keys: CallKeys = new WeakMap();
    return definePlugin({
      id: ID,
      hooks: {
        betweenRounds: ({ prompt }) => {
          const looping = detectDoomLoop(prompt.output, repeats, keys, isOwnPause);
          return looping ? { pause: `${looping} Continue, or stop?` } : undefined;
        },
      },
    });
  },
});
