import { definePlugin, definePluginFactory } from '@tessera/core';
import manifest from '../package.json' with { type: 'json' };
import { McpOptions, type McpSettings } from './options.ts';
import { mcpProgress } from './progress.ts';
import { McpServerSet } from './server-set.ts';
import { McpServersToken } from './status.ts';

export const MCP_PLUGIN_ID = 'mcp';

/** The plugin for validated settings: one set of connections, started with the first platform that opens it. */
function createMcpPlugin(settings: McpSettings) {
  const servers = new McpServerSet(settings);
  let platforms = 0;
  return definePlugin({
    id: MCP_PLUGIN_ID,
    version: manifest.version,
    outputs: [mcpProgress],
    services: (container) => container.register(McpServersToken, { useValue: servers }),
    // Connects every server; one that fails is retried in the background and does not stop the app.
    start: async ({ reportError }) => {
      platforms += 1;
      if (platforms === 1) await servers.start(reportError);
    },
    stop: async () => {
      platforms -= 1;
      if (platforms === 0) await servers.stop();
    },
    prepare: ({ tools, context, signal }) => servers.offer(tools, context, signal),
  });
}

/**
 * The tools, resources and prompts of MCP servers: `mcpPlugin({ servers: { name: { command, args, env } |
 * { url, headers } } })`. Also the package's default export, for config files:
 * `{ "package": "@tessera/plugin-mcp", "options": { "servers": { ... } } }`.
 */
export const mcpPlugin = definePluginFactory({
  id: MCP_PLUGIN_ID,
  options: McpOptions,
  env: { servers: 'TESSERA_MCP_SERVERS' },
  create: createMcpPlugin,
});
