import { createRoute } from '@hono/zod-openapi';
import type { Platform } from '@tessera/core';
import { tags } from '../api-reference.ts';
import { titleFrom } from '../conversation-title.ts';
import { queuedMessageExample } from '../examples.ts';
import { checkInput, tooLargeResponse } from '../input-limit.ts';
import { MessageList, MessageParams, SendMessage, SentMessage } from '../loop-control-schemas.ts';
import { IdParam } from '../schemas.ts';
import { type Api, body, errors, json } from './shared.ts';

/**
 * Messages to a conversation that may be busy: steer the running prompt, or queue a follow-up. Never refused
 * as busy; the waiting list can be read and a message taken off it until it is delivered. An input over
 * `maxInputChars` is a 413.
 */
export function messageRoutes(
  app: Api,
  platform: Platform,
  { maxInputChars }: { maxInputChars: number },
): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/messages',
      operationId: 'sendMessage',
      tags: tags('messages'),
      summary: 'Steer or queue a message',
      description:
        'Unlike `sendPrompt`, never answers 409 when a prompt runs or waits for approval: with `mode: "steer"` the running prompt reads the message at its next round boundary, with `mode: "queue"` it runs as the next prompt when the current one ends (in the order sent). On an idle conversation it starts a prompt at once (`prompt` in the answer). A waiting message is announced with `message.queued` on the event stream. A conversation that holds as much as a conversation may (`limits.maxConversationChars`) answers 409 `conversation_full`, and one with 100 messages waiting 409 `too_many_messages`.',
      request: { params: IdParam, ...body(SendMessage, { input: 'then tell Ada', mode: 'queue' }) },
      responses: {
        202: json(SentMessage, 'The message, waiting (or the prompt it started)', {
          message: queuedMessageExample,
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
      const { input, mode, model, timeZone } = c.req.valid('json');
      checkInput(input, maxInputChars);
      const conversationId = c.req.valid('param').id;
      const userId = c.var.userId;
      const sent = await platform.messages.send({
        conversationId,
        userId,
        input,
        mode,
        ...(model && { model }),
        // As a sent prompt's: the triggers plugin's default zone and the user's local time, when it runs.
        ...(timeZone && { metadata: { timeZone } }),
      });
      if (!sent.run) return c.json({ message: sent.message }, 202);
      sent.run.done.catch(() => {}); // the loop records its own failures
      // It started a prompt at once: an untitled conversation is named after it, as a sent prompt does.
      const conversation = await platform.conversations.get(conversationId, userId);
      const title = conversation.title === undefined ? titleFrom(input) : undefined;
      if (title) await platform.conversations.rename(conversationId, userId, title);
      return c.json({ message: sent.message, prompt: sent.run.prompt }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/messages',
      operationId: 'listMessages',
      tags: tags('messages'),
      summary: 'List the waiting messages',
      description:
        "The conversation's messages sent with `steer` or `queue` that no prompt has read yet, oldest first.",
      request: { params: IdParam },
      responses: {
        200: json(MessageList, 'Waiting steering and follow-up messages', { items: [queuedMessageExample] }),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => {
      const items = await platform.messages.list(c.req.valid('param').id, c.var.userId);
      return c.json({ items }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/conversations/{id}/messages/{messageId}',
      operationId: 'removeMessage',
      tags: tags('messages'),
      summary: 'Remove a waiting message',
      description:
        'Takes a waiting message off the list: it is never delivered. One already delivered (read by the running prompt, or run as a prompt) is a 404.',
      request: { params: MessageParams },
      responses: {
        204: { description: 'Removed (`message.removed` on the event stream)' },
        400: errors[400],
        401: errors[401],
        404: { ...errors[404], description: 'Not waiting: delivered already, removed, or not yours' },
      },
    }),
    async (c) => {
      const { id, messageId } = c.req.valid('param');
      await platform.messages.remove(messageId, { userId: c.var.userId, conversationId: id });
      return c.body(null, 204);
    },
  );
}
