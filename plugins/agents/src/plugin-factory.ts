import { definePluginFactory } from '@tessera/core';
import { z } from 'zod';
import { AgentOptions } from './agent.ts';
import { agentsPlugin } from './plugin.ts';

/**
 * `agentsPlugin` as a plugin factory, the package's default export: what a config file names,
 * `{ "package": "@tessera/plugin-agents", "options": { "agents": [{ "name": "researcher", ... }] } }`.
 * Its options are `agentsPlugin`'s, validated.
 */
export const agentsPluginFactory = definePluginFactory({
  id: 'agents',
  options: z
    .object({
      agents: z.array(AgentOptions).min(1),
      maxDepth: z.number().int().min(1).max(10).optional(),
    })
    .strict(),
  create: (options) => agentsPlugin(options),
});
