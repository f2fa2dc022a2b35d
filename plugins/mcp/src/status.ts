import type { InjectionToken } from '@tessera/core';
import { z } from 'zod';

export const ConnectionState = z
  .enum(['connecting', 'connected', 'reconnecting', 'stopped', 'disabled'])
  .describe(
    '`connecting`: the first attempt is under way; `reconnecting`: the server died, failed or cannot be reached, and is tried again (see `error`, `nextAttemptAt`); `stopped`: the app is closing; `disabled`: in the settings',
  );
export type ConnectionState = z.infer<typeof ConnectionState>;

export const McpServerStatus = z.object({
  name: z.string().describe('The name the settings give the server: the prefix of its tool ids'),
  state: ConnectionState,
  transport: z.enum(['stdio', 'streamable-http', 'sse']),
  target: z.string().describe('The command, or the URL without its query'),
  server: z
    .object({ name: z.string(), version: z.string(), title: z.string().optional() })
    .optional()
    .describe('What the server says it is, once connected'),
  error: z.string().optional().describe('Why the last attempt failed, or the connection was lost'),
  connectedAt: z.string().optional(),
  nextAttemptAt: z.string().optional(),
  failures: z.number().int().describe('Failed attempts since the server last stayed up'),
  pid: z.number().int().optional().describe('The process of a stdio server'),
  tools: z.array(
    z.object({
      id: z.string().describe('The id the model calls it by'),
      name: z.string().describe("The server's name for it"),
      title: z.string().optional(),
      readOnly: z.boolean(),
      requiresApproval: z.boolean(),
    }),
  ),
  skippedTools: z.array(z.object({ name: z.string(), reason: z.string() })),
  resources: z.boolean().describe('Whether the server has resources (mcp.list_resources, mcp.read_resource)'),
  prompts: z.array(z.object({ name: z.string(), description: z.string().optional() })),
});
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** The app's MCP servers: their status, for a panel or a health check; `reconnect` tries one again now. */
export interface McpServers {
  list(): McpServerStatus[];
  reconnect(name: string): Promise<void>;
}

/** Symbol.for: every copy of this package finds the same service. */
export const McpServersToken = Symbol.for('@tessera/plugin-mcp.servers') as InjectionToken<McpServers>;
