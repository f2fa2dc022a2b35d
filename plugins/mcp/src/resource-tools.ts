import { type AnyTool, createTool, errorMessage } from '@tessera/core';
import { z } from 'zod';
import type { McpConnection } from './connection.ts';
import { ContentWriter, fileSinkOf } from './content.ts';
import { McpToolError } from './errors.ts';

/** The connection named `server` among those that have resources, or an error naming the ones there are. */
function pick(servers: readonly McpConnection[], server: string): McpConnection {
  const found = servers.find((connection) => connection.name === server);
  if (found) return found;
  const names = servers.map((connection) => `'${connection.name}'`).join(', ');
  throw new McpToolError(`No MCP server '${server}' with resources here. Those with resources: ${names}.`);
}

/**
 * `mcp.list_resources` and `mcp.read_resource`, over every connected server that has resources, as Claude
 * Code offers them: the model finds what a server exposes (files, records, documents) and reads what the
 * task needs. Both are read-only.
 */
export function resourceTools(servers: readonly McpConnection[]): AnyTool[] {
  const names = servers.map((connection) => connection.name).join(', ');
  const list = createTool({
    id: 'mcp.list_resources',
    description:
      `Lists the resources (documents, files, records) of the connected MCP servers, and the URI templates ` +
      `they accept; read one with mcp.read_resource. Servers with resources: ${names}.`,
    input: z.object({
      server: z.string().optional().describe('One server; all of them when left out'),
      cursor: z.string().optional().describe('nextCursor of the previous page of that server'),
    }),
    readOnly: true,
    invoke: async ({ input, signal }) => {
      const chosen = input.server === undefined ? servers : [pick(servers, input.server)];
      const pages = await Promise.all(
        chosen.map(async (connection) => {
          try {
            const client = await connection.ready(signal);
            const options = { signal };
            const page = await client.listResources(
              input.cursor ? { cursor: input.cursor } : undefined,
              options,
            );
            const templates = input.cursor
              ? []
              : (await client.listResourceTemplates(undefined, options).catch(() => undefined))
                  ?.resourceTemplates;
            return {
              server: connection.name,
              resources: page.resources.map(({ uri, name, title, description, mimeType, size }) => ({
                uri,
                name,
                ...(title && { title }),
                ...(description && { description }),
                ...(mimeType && { mimeType }),
                ...(size !== undefined && { size }),
              })),
              ...(templates?.length && {
                templates: templates.map(({ uriTemplate, name, description, mimeType }) => ({
                  uriTemplate,
                  name,
                  ...(description && { description }),
                  ...(mimeType && { mimeType }),
                })),
              }),
              ...(page.nextCursor && { nextCursor: page.nextCursor }),
            };
          } catch (error) {
            signal.throwIfAborted();
            return { server: connection.name, error: errorMessage(error) };
          }
        }),
      );
      return { servers: pages };
    },
  });
  const read = createTool({
    id: 'mcp.read_resource',
    description:
      'Reads a resource of an MCP server by its URI (from mcp.list_resources, a template, or a resource link ' +
      'a tool returned). Text comes back as it is; images and other binary content are attached as files.',
    input: z.object({
      server: z.string().describe(`The server: ${names}`),
      uri: z.string().min(1),
    }),
    readOnly: true,
    invoke: async (toolInput) => {
      const { input, signal } = toolInput;
      const client = await pick(servers, input.server).ready(signal);
      let contents: Awaited<ReturnType<typeof client.readResource>>['contents'];
      try {
        ({ contents } = await client.readResource({ uri: input.uri }, { signal }));
      } catch (error) {
        signal.throwIfAborted();
        throw new McpToolError(`'${input.server}' could not read ${input.uri}: ${errorMessage(error)}`);
      }
      const writer = new ContentWriter(fileSinkOf(toolInput), input.server);
      const parts: string[] = [];
      for (const item of contents) parts.push(await writer.resource(item));
      return parts.join('\n\n') || `${input.uri} is empty.`;
    },
  });
  return [list, read];
}
