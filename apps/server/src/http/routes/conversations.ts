import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import type { EventLog } from '../event-log.ts';
import {
  ConversationPage,
  ConversationSchema,
  ConversationWithPrompts,
  CreateConversation,
  IdParam,
  PageQuery,
  RenameConversation,
} from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';

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
      summary: 'Create a conversation',
      request: { body: { content: { 'application/json': { schema: CreateConversation } }, required: true } },
      responses: {
        201: json(ConversationSchema, 'The new conversation'),
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
}

function getConversation(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}',
      operationId: 'getConversation',
      summary: 'A conversation with its prompts and every output',
      request: { params: IdParam },
      responses: {
        200: json(ConversationWithPrompts, 'The conversation'),
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
      summary: 'Delete a conversation and its prompts',
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
