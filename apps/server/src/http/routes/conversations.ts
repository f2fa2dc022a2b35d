import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { tags } from '../api-reference.ts';
import type { EventLog } from '../event-log.ts';
import { conversationExample, promptExample } from '../examples.ts';
import {
  ConversationPage,
  ConversationSchema,
  ConversationWithPrompts,
  CreateConversation,
  IdParam,
  PageQuery,
  RenameConversation,
} from '../schemas.ts';
import { type Api, body, errors, json } from './shared.ts';

/** Your conversations: create, list, read with every prompt, rename, delete. */
export function conversationRoutes(app: Api, platform: Platform, events: EventLog): void {
  createConversation(app, platform);
  listConversations(app, platform);
  getConversation(app, platform);
  renameConversation(app, platform);
  deleteConversation(app, platform, events);
}

function createConversation(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations',
      operationId: 'createConversation',
      tags: tags('conversations'),
      summary: 'Create a conversation',
      description:
        'An empty conversation of yours. Without a `title`, the first message names it (its first words), as chat apps do.',
      request: body(CreateConversation, { title: 'Weather in Rome' }),
      responses: {
        201: json(ConversationSchema, 'The new conversation', { ...conversationExample, promptIds: [] }),
        400: errors[400],
        401: errors[401],
        413: errors[413],
        415: errors[415],
      },
    }),
    async (c) => {
      const { title } = c.req.valid('json');
      return c.json(await platform.conversations.create({ userId: c.var.userId, title }), 201);
    },
  );
}

function listConversations(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations',
      operationId: 'listConversations',
      tags: tags('conversations'),
      summary: 'List your conversations',
      description:
        'Your conversations, most recently changed first, `limit` at a time (50 unless given, at most 200). Follow `nextCursor` for the next page; it is absent on the last.',
      request: { query: PageQuery },
      responses: {
        200: json(ConversationPage, 'A page of conversations', { items: [conversationExample] }),
        400: errors[400],
        401: errors[401],
      },
    }),
    async (c) => c.json(await platform.conversations.list(c.var.userId, c.req.valid('query')), 200),
  );
}

function getConversation(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}',
      operationId: 'getConversation',
      tags: tags('conversations'),
      summary: 'Read a conversation',
      description:
        'The conversation with all its prompts, oldest first, each with every output (text, tool calls and results, widgets, files, pauses): what a client renders. Open its event stream before reading it to miss nothing that follows.',
      request: { params: IdParam },
      responses: {
        200: json(ConversationWithPrompts, 'The conversation', {
          conversation: conversationExample,
          prompts: [promptExample],
        }),
        400: errors[400],
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
}

function renameConversation(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/conversations/{id}',
      operationId: 'renameConversation',
      tags: tags('conversations'),
      summary: 'Rename a conversation',
      description:
        'Sets its title (1 to 200 characters, trimmed); your other clients hear of it on GET /api/me/events.',
      request: { params: IdParam, ...body(RenameConversation, { title: 'Trip to Rome' }) },
      responses: {
        200: json(ConversationSchema, 'The renamed conversation', {
          ...conversationExample,
          title: 'Trip to Rome',
        }),
        400: errors[400],
        401: errors[401],
        404: errors[404],
        413: errors[413],
        415: errors[415],
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { title } = c.req.valid('json');
      return c.json(await platform.conversations.rename(id, c.var.userId, title), 200);
    },
  );
}

function deleteConversation(app: Api, platform: Platform, events: EventLog): void {
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/conversations/{id}',
      operationId: 'deleteConversation',
      tags: tags('conversations'),
      summary: 'Delete a conversation',
      description:
        'Deletes the conversation with its prompts and files (plugins delete their own records of it, e.g. its triggers). Its open event streams end; reconnecting, they get a 404.',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, 400: errors[400], 401: errors[401], 404: errors[404] },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await platform.conversations.delete(id, c.var.userId);
      events.end(id); // its open event streams end; reconnecting, they get a 404
      return c.body(null, 204);
    },
  );
}
