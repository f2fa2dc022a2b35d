import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { McpServerStatus, McpServersToken } from '@tessera/plugin-mcp';
import { z } from 'zod';
import { tags } from '../api-reference.ts';
import { type Api, errors, json } from './shared.ts';

const McpServerList = z.object({ items: z.array(McpServerStatus.meta({ id: 'McpServerStatus' })) });

/** The app's MCP servers and how each stands (the MCP plugin's `McpServers` service), for the web UI's panel. */
export function mcpRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/mcp/servers',
      operationId: 'listMcpServers',
      tags: tags('mcp'),
      summary: 'List the MCP servers',
      description:
        "The app's MCP servers, as configured: each one's state, transport, the tools and prompts it offers, and its last error.",
      responses: { 200: json(McpServerList, 'MCP servers'), 401: errors[401] },
    }),
    (c) => c.json({ items: platform.services.resolve(McpServersToken).list() }, 200),
  );
}
