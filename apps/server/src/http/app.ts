import { serveStatic } from '@hono/node-server/serve-static';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import {
  ConflictError,
  ConversationBusyError,
  type Platform,
  type Prompt,
  type ToolOutput,
} from '@tessera/core';
import type { SkillsPlugin } from '@tessera/plugin-skills';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { type AuthOptions, authenticate } from './auth.ts';
import { titleFrom } from './conversation-title.ts';
import { errorResponse, HttpError } from './errors.ts';
import type { EventLog, LoggedEvent } from './event-log.ts';
import { pluginRoutes, ROUTED_PLUGINS } from './routes/plugin-routes.ts';
import { type Env, errors, json } from './routes/shared.ts';
import {
  Accepted,
  ConversationPage,
  ConversationSchema,
  ConversationWithPrompts,
  CreateConversation,
  IdParam,
  PageQuery,
  PendingApprovals,
  PromptBody,
  RejectBody,
  RenameConversation,
  SendPrompt,
  SendPromptWithFiles,
  ServerInfo,
} from './schemas.ts';
import { discardUploads, readForm, storeUploads } from './uploads.ts';

export type AppOptions = {
  platform: Platform;
  /** The ids of the plugins in the set: plugin routes are mounted for these only. */
  plugins: readonly string[];
  /** The built-in skills plugin's catalogue, when it is in the set (for /api/skills). */
  skills: SkillsPlugin | undefined;
  events: EventLog;
  auth: AuthOptions;
  model: { id: string; label: string; demo: boolean };
  maxBodyBytes: number;
  /** For a prompt sent with files (multipart/form-data). */
  maxUploadBytes: number;
  /** Aborted at shutdown: event streams end cleanly. */
  shutdown: AbortSignal;
  heartbeatMs?: number;
  /** The built web UI, served at `/` (any path that is not the API falls back to its index.html). */
  webDir?: string;
};

/** The HTTP API: REST + JSON validated by zod, an OpenAPI document from the same schemas, and SSE events. */
export function createApp(options: AppOptions) {
  const { platform } = options;
  const plugins = new Set(options.plugins);
  const app = new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (!result.success) {
        return c.json(
          { error: { code: 'invalid_request', message: z.prettifyError(result.error as z.ZodError) } },
          400,
        );
      }
    },
  });
  app.onError((error, c) => errorResponse(c, error));
  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}.` } }, 404),
  );

  app.get('/health', (c) => c.json({ ok: true, model: options.model }));
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new HttpError(413, 'payload_too_large', `The request body is over ${maxSize} bytes.`);
      },
    });
  const jsonLimit = limit(options.maxBodyBytes);
  const uploadLimit = limit(options.maxUploadBytes);
  app.use('/api/*', (c, next) =>
    (c.req.header('content-type')?.startsWith('multipart/form-data') ? uploadLimit : jsonLimit)(c, next),
  );
  app.use('/api/*', authenticate(options.auth));
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/me',
      summary: 'Who you are, which model answers, and which plugins the server runs',
      responses: { 200: json(ServerInfo, 'The user, the model and the plugins'), 401: errors[401] },
    }),
    (c) => c.json({ userId: c.var.userId, model: options.model, plugins: [...options.plugins] }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations',
      summary: 'Create a conversation',
      request: { body: { content: { 'application/json': { schema: CreateConversation } }, required: true } },
      responses: {
        201: json(ConversationSchema, 'The new conversation'),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => {
      const { title } = c.req.valid('json');
      return c.json(await platform.conversations.create({ userId: c.var.userId, title }), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations',
      summary: 'List your conversations, most recent first',
      request: { query: PageQuery },
      responses: {
        200: json(ConversationPage, 'A page of conversations'),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => c.json(await platform.conversations.list(c.var.userId, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}',
      summary: 'A conversation with its prompts and every output',
      request: { params: IdParam },
      responses: {
        200: json(ConversationWithPrompts, 'The conversation'),
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const conversation = await platform.conversations.get(id, c.var.userId);
      return c.json({ conversation, prompts: await platform.conversations.prompts(id, c.var.userId) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/conversations/{id}',
      summary: 'Rename a conversation',
      request: {
        params: IdParam,
        body: { content: { 'application/json': { schema: RenameConversation } }, required: true },
      },
      responses: {
        200: json(ConversationSchema, 'The renamed conversation'),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { title } = c.req.valid('json');
      return c.json(await platform.conversations.rename(id, c.var.userId, title), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/conversations/{id}',
      summary: 'Delete a conversation and its prompts',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      await platform.conversations.delete(c.req.valid('param').id, c.var.userId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/prompts',
      summary: 'Send input: starts a prompt and answers at once; follow it on the event stream',
      request: {
        params: IdParam,
        body: {
          content: {
            'application/json': { schema: SendPrompt },
            'multipart/form-data': { schema: SendPromptWithFiles },
          },
          // Each content type is validated only when the request has it (required: true would check both).
          required: false,
        },
      },
      responses: {
        202: json(Accepted, 'The prompt, running'),
        400: errors[400],
        401: errors[401],
        404: errors[404],
        409: errors[409],
      },
    }),
    async (c) => {
      const conversationId = c.req.valid('param').id;
      const userId = c.var.userId;
      const multipart = c.req.header('content-type')?.startsWith('multipart/form-data') ?? false;
      const form = multipart ? await c.req.parseBody({ all: true }) : undefined;
      const fields = form ? readForm(form) : c.req.valid('json');
      if (!fields)
        throw new HttpError(400, 'invalid_request', 'Send JSON ({ "input": "..." }) or multipart/form-data.');
      const { input, model, id } = fields;
      // 404 before any file is stored
      const conversation = await platform.conversations.get(conversationId, userId);
      /** A send retried with its id answers with the prompt it started (nothing is stored twice). */
      const alreadySent = async () => {
        const prompt = id === undefined ? undefined : await platform.store.prompts.get(id);
        if (!prompt) return undefined;
        if (prompt.conversationId !== conversationId || prompt.userId !== userId || prompt.input !== input) {
          throw new HttpError(409, 'conflict', `The id ${id} belongs to another prompt; choose a new one.`);
        }
        return c.json({ prompt }, 202);
      };
      const replay = await alreadySent();
      if (replay) return replay;
      const outputs = form
        ? await storeUploads(platform, form, {
            owner: { userId, conversationId },
            canStore: plugins.has(ROUTED_PLUGINS.files),
          })
        : [];
      let run: Awaited<ReturnType<typeof platform.start>>;
      try {
        run = await platform.start({ conversationId, userId, input, model, outputs, promptId: id });
      } catch (error) {
        if (outputs.length > 0) await discardUploads(platform, outputs, { userId, conversationId });
        // The same send, retried while the first was starting (the store says busy or duplicate, as it meets it).
        if (ConflictError.is(error) || ConversationBusyError.is(error)) {
          const replay = await alreadySent();
          if (replay) return replay;
        }
        throw error;
      }
      run.done.catch(() => {}); // the loop records its own failures
      // An untitled conversation is named after its first message, as chat apps do.
      const title = conversation.title === undefined && input ? titleFrom(input) : undefined;
      if (title) await platform.conversations.rename(conversationId, userId, title);
      return c.json({ prompt: run.prompt }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/prompts/{id}',
      summary: 'A prompt with every output',
      request: { params: IdParam },
      responses: { 200: json(PromptBody, 'The prompt'), 401: errors[401], 404: errors[404] },
    }),
    async (c) => c.json(await platform.getPrompt(c.req.valid('param').id, c.var.userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/prompts/{id}/cancel',
      summary: 'Cancel a running prompt, or one waiting for approval',
      request: { params: IdParam },
      responses: {
        200: json(PromptBody, 'The cancelled prompt'),
        401: errors[401],
        404: errors[404],
        409: errors[409],
      },
    }),
    async (c) => c.json(await platform.cancel(c.req.valid('param').id, { userId: c.var.userId }), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/approvals',
      summary: 'Your tool calls waiting for approval, across conversations',
      responses: { 200: json(PendingApprovals, 'Pending approvals'), 401: errors[401] },
    }),
    async (c) => {
      const waiting = await platform.store.prompts.listByState('waiting_for_approval');
      const items = (waiting as Prompt[])
        .filter((prompt) => prompt.userId === c.var.userId)
        .flatMap((prompt) =>
          prompt.output
            .filter((o): o is ToolOutput => o.type === 'tool' && o.result?.type === 'pending')
            .map((o) => ({
              toolCallId: o.id,
              promptId: prompt.id,
              conversationId: prompt.conversationId,
              toolId: o.toolId,
              input: o.input,
              reason: o.result?.type === 'pending' ? o.result.reason : '',
              createdAt: o.createdAt,
            })),
        );
      return c.json({ items }, 200);
    },
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/tool-calls/{id}/${decision}`,
        summary:
          decision === 'approve'
            ? 'Approve a pending tool call: it runs once and the prompt resumes'
            : 'Reject a pending tool call: the model reads why and the prompt resumes',
        request: { params: IdParam },
        responses: {
          202: json(Accepted, 'The prompt, resumed'),
          400: errors[400],
          401: errors[401],
          404: errors[404],
          409: errors[409],
        },
      }),
      async (c) => {
        const reason =
          decision === 'reject'
            ? (await readOptionalJson(await c.req.text(), RejectBody))?.reason
            : undefined;
        const run = await platform.decide(c.req.valid('param').id, {
          userId: c.var.userId,
          approve: decision === 'approve',
          reason,
        });
        run.done.catch(() => {});
        return c.json({ prompt: run.prompt }, 202);
      },
    );
  }

  app.get('/api/conversations/:id/events', async (c) => {
    const conversationId = c.req.param('id');
    await platform.conversations.get(conversationId, c.var.userId); // 404 unless it is the caller's
    const lastEventId = c.req.header('last-event-id') ?? c.req.query('lastEventId');
    return streamSSE(c, async (stream) => {
      const queue: LoggedEvent[] = [];
      let wake: (() => void) | undefined;
      const unlisten = options.events.listen(conversationId, (entry) => {
        queue.push(entry);
        wake?.();
      });
      const stop = () => wake?.();
      const disconnected = c.req.raw.signal;
      options.shutdown.addEventListener('abort', stop);
      disconnected.addEventListener('abort', stop);
      stream.onAbort(stop);
      try {
        if (lastEventId) {
          const missed = options.events.since(conversationId, lastEventId);
          if (missed) queue.unshift(...missed.filter((entry) => !queue.includes(entry)));
          else
            await stream.writeSSE({
              event: 'reset',
              data: '{"reason":"cannot resume; reload the conversation"}',
            });
        }
        await stream.writeSSE({ event: 'ready', data: JSON.stringify({ boot: options.events.boot }) });
        const heartbeat = setInterval(() => void stream.write(': ping\n\n'), options.heartbeatMs ?? 15_000);
        try {
          while (!stream.aborted && !stream.closed && !options.shutdown.aborted && !disconnected.aborted) {
            const entry = queue.shift();
            if (entry) {
              await stream.writeSSE({
                id: entry.id,
                event: entry.event.type,
                data: JSON.stringify(entry.event),
              });
              continue;
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = undefined;
          }
        } finally {
          clearInterval(heartbeat);
        }
      } finally {
        unlisten();
        options.shutdown.removeEventListener('abort', stop);
        disconnected.removeEventListener('abort', stop);
      }
    });
  });

  pluginRoutes(app, platform, { plugins, skills: options.skills });

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version: '0.1.0',
      description: 'Conversations, prompts, approvals and live events.',
    },
    security: [{ bearer: [] }],
  });
  app.get('/docs', Scalar({ url: '/openapi.json', pageTitle: 'Tessera API' }));
  if (options.webDir) {
    const root = options.webDir;
    // Everything but the API is the web UI: its files, else its index.html (the UI routes itself).
    // Unknown API routes stay JSON 404s.
    const notApi =
      (handler: MiddlewareHandler): MiddlewareHandler =>
      (c, next) =>
        c.req.path.startsWith('/api/') ? next() : handler(c, next);
    app.get('/*', notApi(serveStatic({ root })));
    app.get('/*', notApi(serveStatic({ root, path: 'index.html' })));
  }
  return app;
}

/** An optional JSON body: absent is fine, present must be valid. */
async function readOptionalJson<T extends z.ZodType>(
  text: string,
  schema: T,
): Promise<z.output<T> | undefined> {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HTTPException(400, { message: 'The body is not valid JSON.' });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, 'invalid_request', z.prettifyError(parsed.error));
  return parsed.data;
}
