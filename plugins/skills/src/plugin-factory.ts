import { definePluginFactory } from '@tessera/core';
import { z } from 'zod';
import { skillsWithFoldersUnread } from './plugin.ts';
import type { CodeSkill } from './skill.ts';

const isCodeSkill = (value: unknown): value is CodeSkill => (value as CodeSkill | null)?.kind === 'code';

/**
 * `createSkillsPlugin` as a plugin factory, the package's default export: what a config file names,
 * `{ "package": "@tessera/plugin-skills", "options": { "directories": ["skills"] } }` (relative directories
 * resolve from `cwd`, default the process's working directory). Its options are `createSkillsPlugin`'s,
 * validated. A factory makes its plugin synchronously, so the folders are read at the plugin's first round
 * rather than before; use `createSkillsPlugin` for the catalogue and its diagnostics at start-up.
 */
export const skillsPluginFactory = definePluginFactory({
  id: 'skills',
  options: z
    .object({
      directories: z.array(z.string().min(1)).optional(),
      cwd: z.string().min(1).optional(),
      skills: z.array(z.custom<CodeSkill>(isCodeSkill, 'expected a skill from defineSkill')).optional(),
      slashCommands: z.boolean().optional(),
      refreshInterval: z.number().int().nonnegative().optional(),
      maxResourceBytes: z.number().int().positive().optional(),
    })
    .strict(),
  create: (options) => skillsWithFoldersUnread(options).plugin,
});
