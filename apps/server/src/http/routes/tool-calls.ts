import { createRoute } from '@hono/zod-openapi';
import { NotFoundError, type Platform, type Prompt, type ToolOutput } from '@tessera/core';
import { tags } from '../api-reference.ts';
import { toolCallExample } from '../examples.ts';
import { ToolCallDetail } from '../loop-control-schemas.ts';
import { IdParam } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

/** One of your tool calls with its tool's argument schema: what an editor of its arguments needs. */
export function toolCallRoutes(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tool-calls/{id}',
      operationId: 'getToolCall',
      tags: tags('approvals'),
      summary: 'Read a tool call',
      description:
        "One of your tool calls: the model's arguments, the edited ones it ran with (if any), its result, and the JSON Schema of its tool's arguments, which an editor needs to change them before approving.",
      request: { params: IdParam },
      responses: {
        200: json(ToolCallDetail, 'The tool call', toolCallExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const prompt = (await platform.store.prompts.findByToolCall(id)) as Prompt | undefined;
      const call = prompt?.output.find((o): o is ToolOutput => o.type === 'tool' && o.id === id);
      if (!prompt || !call || prompt.userId !== c.var.userId) throw new NotFoundError(`No tool call ${id}.`);
      // The plugins' own tools; one a plugin makes per round (`prepare`) has no schema here.
      const tool = platform.plugins.flatMap((p) => p.tools).find((t) => t.id === call.toolId);
      return c.json(
        {
          toolCallId: call.id,
          promptId: prompt.id,
          toolId: call.toolId,
          input: call.input,
          ...(call.editedInput !== undefined && { editedInput: call.editedInput }),
          ...(call.result && { result: call.result }),
          ...(tool && { inputSchema: tool.jsonSchema }),
        },
        200,
      );
    },
  );
}
