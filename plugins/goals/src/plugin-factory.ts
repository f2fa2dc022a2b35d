import { definePluginFactory } from '@tessera/core';
import { z } from 'zod';
import { Budgets } from './inputs.ts';
import { goalsPlugin } from './plugin.ts';

/**
 * `goalsPlugin` as a plugin factory, the package's default export: what a config file names,
 * `{ "package": "@tessera/plugin-goals", "options": { "defaultStallLimit": 3 } }`.
 */
export const goalsPluginFactory = definePluginFactory({
  id: 'goals',
  options: z
    .object({
      defaultStallLimit: z.number().int().min(1).max(20).optional(),
      sweepEveryMs: z.union([z.literal(false), z.number().int().positive()]).optional(),
      defaultBudgets: Budgets.optional(),
      maxLiveGoalsPerUser: z.number().int().min(1).max(10_000).optional(),
    })
    .strict(),
  create: (options) => goalsPlugin(options),
});
