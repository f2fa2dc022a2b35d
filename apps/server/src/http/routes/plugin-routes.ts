import type { Platform } from '@tessera/core';
import { GOALS_PLUGIN_ID } from '@tessera/plugin-goals';
import { MCP_PLUGIN_ID, McpServersToken } from '@tessera/plugin-mcp';
import type { SkillsPlugin } from '@tessera/plugin-skills';
import { TRIGGERS_PLUGIN_ID } from '@tessera/plugin-triggers';
import { INSTRUCTIONS_PLUGIN_ID } from '../../user-instructions.ts';
import { blueprintRoutes } from './blueprints.ts';
import { fileRoutes } from './files.ts';
import { goalRoutes } from './goals.ts';
import { instructionRoutes } from './instructions.ts';
import { mcpRoutes } from './mcp.ts';
import type { Api } from './shared.ts';
import { skillRoutes } from './skills.ts';
import { triggerRoutes } from './triggers.ts';

/** The ids of the plugins whose routes the server has (the plugins own their ids). */
export const ROUTED_PLUGINS = {
  triggers: TRIGGERS_PLUGIN_ID,
  goals: GOALS_PLUGIN_ID,
  files: 'files',
  blueprints: 'blueprints',
  skills: 'skills',
  mcp: MCP_PLUGIN_ID,
  instructions: INSTRUCTIONS_PLUGIN_ID,
} as const;

/**
 * Mounts the routes of the plugins in the set, and only those: a server without the triggers plugin has no
 * /api/triggers (nor an OpenAPI entry for it). Skills need the catalogue of the built-in skills plugin.
 */
export function pluginRoutes(
  app: Api,
  platform: Platform,
  {
    plugins,
    skills,
    maxInputChars,
  }: { plugins: ReadonlySet<string>; skills: SkillsPlugin | undefined; maxInputChars: number },
): void {
  if (plugins.has(ROUTED_PLUGINS.triggers)) triggerRoutes(app, platform);
  if (plugins.has(ROUTED_PLUGINS.goals)) goalRoutes(app, platform, { maxInputChars });
  if (skills && plugins.has(ROUTED_PLUGINS.skills)) skillRoutes(app, platform, skills);
  if (plugins.has(ROUTED_PLUGINS.blueprints)) blueprintRoutes(app, platform);
  if (plugins.has(ROUTED_PLUGINS.files)) fileRoutes(app, platform);
  if (plugins.has(ROUTED_PLUGINS.instructions)) instructionRoutes(app, platform);
  // Its status comes from the plugin's service (a plugin with the id and without the service gets no route).
  if (plugins.has(ROUTED_PLUGINS.mcp) && platform.services.isRegistered(McpServersToken, true)) {
    mcpRoutes(app, platform);
  }
}
