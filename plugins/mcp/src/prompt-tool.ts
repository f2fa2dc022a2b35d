import { type AnyTool, createTool, errorMessage } from '@tessera/core';
import { z } from 'zod';
import type { McpConnection } from './connection.ts';
import { ContentWriter, fileSinkOf } from './content.ts';
import { McpToolError } from './errors.ts';

/** How many prompts the tool's description lists, and how much of each description. */
const LISTED = 50;
const DESCRIPTION_CHARS = 120;

const cut = (text: string) =>
  text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS - 1)}…` : text;

/** The catalogue in the tool's description: `- server/name (a, b?): description`. */
function catalogue(servers: readonly McpConnection[]): string {
  const lines = servers.flatMap((connection) =>
    connection.prompts.map((prompt) => {
      const args = prompt.arguments?.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
      const about = prompt.description ? `: ${cut(prompt.description.replace(/\s+/g, ' ').trim())}` : '';
      return `- ${connection.name}/${prompt.name}${args ? ` (${args})` : ''}${about}`;
    }),
  );
  const more = lines.length > LISTED ? `\n(and ${lines.length - LISTED} more)` : '';
  return lines.slice(0, LISTED).join('\n') + more;
}

/**
 * `mcp.get_prompt`: MCP prompts are templates meant for the user to pick (slash commands in Claude Desktop
 * and Cursor). Tessera's chat has no slash commands, so the catalogue is in this tool's description and the
 * model fetches a prompt when the user asks for it by name ("use the code review prompt"); the messages come
 * back as the result, for the model to follow.
 */
export function promptTool(servers: readonly McpConnection[]): AnyTool {
  return createTool({
    id: 'mcp.get_prompt',
    description:
      'Gets a prompt (an instruction template) of an MCP server, filled in with its arguments, and returns ' +
      'its messages: follow them as the user’s request. Use it when the user asks for one of these by name:\n' +
      catalogue(servers),
    input: z.object({
      server: z.string(),
      name: z.string(),
      arguments: z.record(z.string(), z.string()).optional().describe('The prompt’s arguments, as text'),
    }),
    readOnly: true,
    invoke: async (toolInput) => {
      const { input, signal } = toolInput;
      const connection = servers.find(
        (c) => c.name === input.server && c.prompts.some((p) => p.name === input.name),
      );
      if (!connection) throw new McpToolError(`There is no prompt '${input.server}/${input.name}'.`);
      const client = await connection.ready(signal);
      let result: Awaited<ReturnType<typeof client.getPrompt>>;
      try {
        result = await client.getPrompt({ name: input.name, arguments: input.arguments ?? {} }, { signal });
      } catch (error) {
        signal.throwIfAborted();
        throw new McpToolError(
          `'${input.server}' could not give the prompt '${input.name}': ${errorMessage(error)}`,
        );
      }
      const writer = new ContentWriter(fileSinkOf(toolInput), input.name);
      const parts = result.description ? [result.description] : [];
      for (const message of result.messages)
        parts.push(`[${message.role}]\n${await writer.block(message.content)}`);
      return parts.join('\n\n');
    },
  });
}
