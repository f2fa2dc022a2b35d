import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { tags } from '../api-reference.ts';
import type { EventLog } from '../event-log.ts';
import { conversationExample, forkExample, promptExample } from '../examples.ts';
import {
  ConversationPage,
  ConversationSchema,
  ConversationWithPrompts,
  CreateConversation,
  ForkConversation,
  IdParam,
  PageQuery,
  RenameConversation,
} from '../schemas.ts';
import { type Api, body, errors, json } from './shared.ts';

/** Your conversations: create, list, read with every prompt, rename, fork and list branches, delete. */
export function conversationRoutes(app: Api, platform: Platform, events: EventLog): void {
  createConversation(app, platform);
  listConversations(app, platform);
  getConversation(app, platform);
  renameConversation(app, platform);
  forkConversation(app, platform);
  listBranches(app, platform);
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
        'An empty conversation of yours. Without a `title`, the first message names it (its first words), as chat apps do. Past `limits.maxConversations` of yours (forks included): 409 `too_many_conversations`; delete some first.',
      request: body(CreateConversation, { title: 'Weather in Rome' }),
      responses: {
        201: json(ConversationSchema, 'The new conversation', { ...conversationExample, promptIds: [] }),
        400: errors[400],
        401: errors[401],
        409: errors[409],
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

function forkConversation(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/fork',
      operationId: 'forkConversation',
      tags: tags('conversations'),
      summary: 'Fork a conversation at a prompt',
      description:
        "A new conversation of yours that shares this one's prompts before `promptId` (by reference: nothing is copied) and has none of its own yet: send to it to branch off, with any model, e.g. to replay from that point, or to edit and resend a message. Its `forkOf` says where it branched and the lineage it belongs to (`rootId`). It starts with this conversation's plugin state as it is now and this conversation's title (a fork at the first prompt has none: its first message names it) unless `title` is given. The prompt may be running or waiting: only the ended prompts before it are shared. This conversation is not changed, and the fork keeps its history if this one is deleted. Another user's conversation, or a prompt not in it: 404. A lineage has at most `limits.maxBranches` branches (this conversation's first one and every fork of it): one more is a 409 `too_many_branches` (delete a branch first), as one past `limits.maxConversations` of yours is a 409 `too_many_conversations`. Counted as a send (`rateLimits.promptsPerUser`).",
      request: {
        params: IdParam,
        ...body(ForkConversation, { promptId: 'prm_Q2nV8cLx0TfRk4Jd' }),
      },
      responses: {
        201: json(ConversationSchema, 'The fork', forkExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
        409: errors[409],
        413: errors[413],
        415: errors[415],
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { promptId, title } = c.req.valid('json');
      const fork = await platform.conversations.fork(id, c.var.userId, {
        promptId,
        ...(title !== undefined && { title }),
      });
      return c.json(fork, 201);
    },
  );
}

function listBranches(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/branches',
      operationId: 'listBranches',
      tags: tags('conversations'),
      summary: "List a conversation's branches",
      description:
        'The conversations of its lineage: the first one (unless deleted) and every fork of it, forks of forks included, most recently changed first, `limit` at a time (50 unless given, at most 200), each with its `promptIds`: a client shows the alternatives at a turn (the branches that share the prompts before it and differ there) and opens one.',
      request: { params: IdParam, query: PageQuery },
      responses: {
        200: json(ConversationPage, 'A page of the branches', { items: [forkExample, conversationExample] }),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await platform.conversations.branches(id, c.var.userId, c.req.valid('query')), 200);
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
        'Deletes the conversation with its prompts and files (plugins delete their own records of it, e.g. its triggers), but for the prompts and files its forks share: they stay with the forks. Its open event streams end; reconnecting, they get a 404.',
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
