import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyPlugin } from '@tessera/core';
import { blueprintsPlugin } from '@tessera/plugin-blueprints';
import { doomLoopPlugin } from '@tessera/plugin-doom-loop';
import { filesPlugin } from '@tessera/plugin-files';
import { goalsPlugin } from '@tessera/plugin-goals';
import { createSkillsPlugin, type SkillsPlugin } from '@tessera/plugin-skills';
import { triggersPlugin } from '@tessera/plugin-triggers';
import { widgetsPlugin } from '@tessera/plugin-widgets';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.ts';
import { demoPlugin } from './demo/demo-plugin.ts';
import { instructionsPlugin } from './user-instructions.ts';

const EXAMPLE_SKILLS = fileURLToPath(new URL('../examples/skills', import.meta.url));

/** The plugin set a server runs, and the skills catalogue behind /api/skills when the built-in one is in it. */
export type Composition = { plugins: AnyPlugin[]; skills: SkillsPlugin | undefined };

/** The built-in plugins, configured from the server's settings. */
async function builtInPlugins(config: ServerConfig, log: Logger | undefined): Promise<Composition> {
  const skills = await createSkillsPlugin({
    directories: [EXAMPLE_SKILLS, ...config.skillsDirs],
    skills: [],
  });
  for (const { file, severity, message } of skills.diagnostics) {
    const what = severity === 'warning' ? 'skill loaded with a warning' : 'skill skipped';
    log?.warn({ file }, `${what}: ${message}`);
  }
  const plugins = [
    widgetsPlugin,
    filesPlugin({ directory: join(config.dataDir, 'files'), maxFileBytes: config.limits.maxUploadBytes }),
    triggersPlugin(),
    // Goals need no setting: a conversation's goal runs its prompts until its criteria have evidence.
    goalsPlugin(),
    skills.plugin,
    blueprintsPlugin(),
    instructionsPlugin,
    // Pauses a prompt whose model repeats the same calls (3 times), as core itself did before it was a plugin.
    doomLoopPlugin(),
  ];
  return { plugins, skills };
}

/**
 * The built-in plugins (unless `defaultPlugins` is false), then the app's; an app's plugin with a built-in's id
 * replaces it. The demo tools join only for the offline demo model, never for a real one, and only when the
 * plugins they require (widgets and files) are there: with `defaultPlugins: false`, usually not.
 */
export async function composePlugins(options: {
  config: ServerConfig;
  plugins: readonly AnyPlugin[];
  defaultPlugins: boolean;
  demo: boolean;
  log: Logger | undefined;
}): Promise<Composition> {
  const builtIn = options.defaultPlugins
    ? await builtInPlugins(options.config, options.log)
    : { plugins: [], skills: undefined };
  const own = new Set(options.plugins.map((plugin) => plugin.id));
  const plugins = [...builtIn.plugins.filter((plugin) => !own.has(plugin.id)), ...options.plugins];
  const ids = new Set(plugins.map((plugin) => plugin.id));
  if (options.demo && !ids.has(demoPlugin.id) && demoPlugin.requires.every((id) => ids.has(id)))
    plugins.push(demoPlugin);
  const skills = builtIn.skills && plugins.includes(builtIn.skills.plugin) ? builtIn.skills : undefined;
  return { plugins, skills };
}
