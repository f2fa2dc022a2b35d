import { createRoute } from '@hono/zod-openapi';
import { ConversationBusyError, newId, type Platform } from '@tessera/core';
import { z } from 'zod';
import { approvalOf, TOOL_RUN } from '../../tool-runs.ts';
import { tags } from '../api-reference.ts';
import { HttpError } from '../errors.ts';
import { acceptedExample, offeredToolExample } from '../examples.ts';
import { checkArguments, tooLargeResponse } from '../input-limit.ts';
import { Accepted, IdParam, TimeZone } from '../schemas.ts';
import { type Api, body, errors, json } from './shared.ts';

const OfferedToolSchema = z
  .object({
    id: z.string().meta({ example: 'tickets.create' }),
    description: z.string(),
    /** The plugin that offers it. */
    plugin: z.string(),
    inputSchema: z
      .record(z.string(), z.unknown())
      .meta({ description: "The JSON Schema of the tool's arguments, as the model is sent it" }),
    approval: z.enum(['always', 'never', 'depends']).meta({
      description:
        "Whether a call waits for the user's approval by the tool's own `requireApproval`: `depends` on the arguments (a plugin's hooks and permission policies may ask too)",
    }),
    readOnly: z.boolean(),
  })
  .meta({ id: 'OfferedTool' });

const OfferedTools = z.object({ items: z.array(OfferedToolSchema) }).meta({ id: 'OfferedTools' });

const RunTool = z
  .object({
    toolId: z.string().min(1).max(64).meta({ description: 'The id of a tool the conversation offers' }),
    input: z.record(z.string(), z.unknown()).default({}).meta({
      description:
        "The tool's arguments, checked against its schema (a 400 `invalid_arguments` lists the issues); at most `limits.maxInputChars` characters as JSON, else a 413 `input_too_large`",
    }),
    timeZone: TimeZone.optional(),
  })
  .strict()
  .meta({ id: 'RunTool' });

const TOOL_RUN_DESCRIPTION =
  "The user calls a tool themselves, as the model would: a prompt starts (no input, `metadata.toolRun: true`) whose first output is that call. It goes the way of the model's calls: the plugins' hooks and permission policies and the tool's `requireApproval` decide whether it waits for approval (then approve or reject it at /api/tool-calls/{id}), its outputs are recorded and streamed as the chat's are, and the prompt ends after the call without asking the model. Counted as a send (`rateLimits.promptsPerUser`).";

/**
 * The tool runner's routes: the tools a conversation offers the model, and a run of one of them (a prompt
 * whose first round is the user's call instead of the model's; see ../../tool-runs.ts).
 */
export function toolRunRoutes(app: Api, platform: Platform, { maxInputChars }: { maxInputChars: number }) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/tools',
      operationId: 'listConversationTools',
      tags: tags('tools'),
      summary: "List a conversation's tools",
      description:
        "The tools the conversation offers the model, as its next prompt would offer them (plugins may offer some only in some conversations), with each one's argument schema and whether a call waits for approval: what a form to run one yourself needs.",
      request: { params: IdParam },
      responses: {
        200: json(OfferedTools, 'The tools, in the order the model is offered them', {
          items: [offeredToolExample],
        }),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const offered = await platform.offeredTools(c.req.valid('param').id, c.var.userId, {
        signal: c.req.raw.signal,
      });
      const items = [...offered.values()].map(({ tool, plugin }) => ({
        id: tool.id,
        description: tool.description,
        plugin: plugin.id,
        inputSchema: tool.jsonSchema,
        approval: approvalOf(tool),
        readOnly: tool.readOnly,
      }));
      return c.json({ items }, 200);
    },
  );
  runTool(app, platform, maxInputChars);
}

function runTool(app: Api, platform: Platform, maxInputChars: number): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/tool-runs',
      operationId: 'runTool',
      tags: tags('tools'),
      summary: 'Run a tool yourself',
      description: TOOL_RUN_DESCRIPTION,
      request: {
        params: IdParam,
        ...body(RunTool, { toolId: 'demo.weather', input: { city: 'Rome' }, timeZone: 'Europe/Rome' }),
      },
      responses: {
        202: json(Accepted, 'The prompt, running', {
          prompt: { ...acceptedExample.prompt, input: undefined, metadata: { toolRun: true } },
        }),
        400: errors[400],
        401: errors[401],
        404: errors[404],
        409: errors[409],
        413: tooLargeResponse,
        415: errors[415],
      },
    }),
    async (c) => {
      const conversationId = c.req.valid('param').id;
      const userId = c.var.userId;
      const { toolId, input, timeZone } = c.req.valid('json');
      checkArguments(input, maxInputChars, 'The arguments');
      // Plugins read it from the prompt, as a sent prompt's: the triggers plugin's default zone.
      const metadata = { [TOOL_RUN]: true, ...(timeZone && { timeZone }) };
      const offered = await platform.offeredTools(conversationId, userId, {
        metadata,
        signal: c.req.raw.signal,
      });
      const tool = offered.get(toolId)?.tool;
      if (!tool) {
        const message = `This conversation offers no tool '${toolId}' (GET /api/conversations/${conversationId}/tools lists those it does).`;
        throw new HttpError(404, 'not_found', message);
      }
      const parsed = tool.input.safeParse(input);
      if (!parsed.success) {
        const problems = z.prettifyError(parsed.error);
        const message = `The arguments do not match the schema of '${toolId}':\n${problems}`;
        throw new HttpError(400, 'invalid_arguments', message);
      }
      // The call as the model would have made it (its arguments as given: the loop validates them again).
      const call = { type: 'tool' as const, callId: newId('run'), toolId, input };
      const run = await platform
        .start({ conversationId, userId, metadata, outputs: [call] })
        .catch((error: unknown) => {
          if (!ConversationBusyError.is(error)) throw error;
          const message = `${error.message} Run the tool once the conversation's prompt has ended.`;
          throw new HttpError(409, 'conversation_busy', message);
        });
      run.done.catch(() => {}); // the loop records its own failures
      return c.json({ prompt: run.prompt }, 202);
    },
  );
}
