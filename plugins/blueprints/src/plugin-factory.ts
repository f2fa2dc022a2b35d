import { definePluginFactory } from '@tessera/core';
import { z } from 'zod';
import { blueprintsPlugin } from './plugin.ts';

/**
 * `blueprintsPlugin` as a plugin factory, the package's default export: what a config file names,
 * `{ "package": "@tessera/plugin-blueprints", "options": { "minScore": 4 } }`. Its options are
 * `blueprintsPlugin`'s, validated.
 */
export const blueprintsPluginFactory = definePluginFactory({
  id: 'blueprints',
  options: z
    .object({
      minScore: z.number().nonnegative().optional(),
      maxInContext: z.number().int().nonnegative().optional(),
      maxBlueprintsPerUser: z.number().int().positive().optional(),
    })
    .strict(),
  create: (options) => blueprintsPlugin(options),
});
