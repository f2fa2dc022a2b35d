import { createHash } from 'node:crypto';
import { createRoute } from '@hono/zod-openapi';
import {
  ConflictError,
  ConversationBusyError,
  ConversationFullError,
  type Platform,
  type StartedPrompt,
} from '@tessera/core';
import { tags } from '../api-reference.ts';
import { titleFrom } from '../conversation-title.ts';
import { HttpError } from '../errors.ts';
import { acceptedExample, promptExample } from '../examples.ts';
import { checkInput, tooLargeResponse } from '../input-limit.ts';
import { Accepted, ErrorSchema, IdParam, PromptBody, SendPrompt, SendPromptWithFiles } from '../schemas.ts';
import { type Api, errors, json } from './shared.ts';
import { discardUploads, readSend, sendBodyGate, storeUploads } from './uploads.ts';

/**
 * The id of the prompt a client's own id names: derived from the user and that id, so each user has ids of
 * their own. Another user's id is never met (a 409 would tell that it exists), and a retry with the same id
 * finds its prompt.
 */
export const promptIdFor = (userId: string, clientId: string): string =>
  `prm_${createHash('sha256')
    .update(JSON.stringify([userId, clientId]))
    .digest('base64url')
    .slice(0, 22)}`;

/** The 409 of a send to a busy conversation names the route that takes it: steer or queue it there. */
const busy = (conversationId: string, message: string) =>
  new HttpError(
    409,
    'conversation_busy',
    `${message} To steer the running prompt or queue a follow-up instead, POST it to /api/conversations/${conversationId}/messages with "mode": "steer" or "queue".`,
  );

/**
 * Prompts: send input to a conversation (JSON, or multipart with files), read one, cancel one.
 * `canStoreFiles` is false when the server runs without the files plugin: attachments are refused; an input
 * over `maxInputChars` is a 413.
 */
export function promptRoutes(
  app: Api,
  platform: Platform,
  options: { canStoreFiles: boolean; maxInputChars: number },
): void {
  sendPrompt(app, platform, options);
  getPrompt(app, platform);
  cancelPrompt(app, platform);
}

const sendPromptRoute = createRoute({
  method: 'post',
  path: '/api/conversations/{id}/prompts',
  operationId: 'sendPrompt',
  tags: tags('prompts'),
  summary: 'Send a message',
  description: [
    'Starts a prompt on your input and answers at once (202) with it running: follow it on the',
    "conversation's event stream (open it first). As `multipart/form-data`, attach files (field `files`, once",
    'per file; text, files or both): the model reads them, and they show in the conversation. A conversation',
    'with a prompt running or waiting for you answers 409 `conversation_busy`: steer or queue the message with',
    'POST /api/conversations/{id}/messages instead, or cancel the prompt. A conversation that holds as much as',
    'a conversation may (`limits.maxConversationChars`) answers 409 `conversation_full` (the first prompt sent',
    'past it ends at once, `failed` with that stop reason): start a new conversation, or fork this one at an',
    'earlier prompt. Give an `id` of your own to retry a send safely. Counted against `rateLimits.promptsPerUser`.',
  ].join(' '),
  request: {
    params: IdParam,
    body: {
      content: {
        'application/json': {
          schema: SendPrompt,
          example: { input: 'weather in Rome', model: 'normal', timeZone: 'Europe/Rome' },
        },
        'multipart/form-data': { schema: SendPromptWithFiles },
      },
      // Each content type is validated only when the request has it (required: true would check both).
      required: false,
    },
  },
  responses: {
    202: json(Accepted, 'The prompt, running', acceptedExample),
    400: errors[400],
    401: errors[401],
    404: errors[404],
    409: errors[409],
    413: json(
      ErrorSchema,
      `${tooLargeResponse.description}, or an attached file over the file limit (\`file_too_large\`) or past your storage quota (\`storage_quota_exceeded\`: delete files or conversations to free space)`,
    ),
    415: errors[415],
  },
});

function sendPrompt(
  app: Api,
  platform: Platform,
  { canStoreFiles, maxInputChars }: { canStoreFiles: boolean; maxInputChars: number },
): void {
  app.post('/api/conversations/:id/prompts', sendBodyGate); // before the route's validators
  app.openapi(sendPromptRoute, async (c) => {
    const conversationId = c.req.valid('param').id;
    const userId = c.var.userId;
    const { fields, form } = await readSend(c);
    const { input, model } = fields;
    checkInput(input, maxInputChars); // before anything is read or stored
    const id = fields.id === undefined ? undefined : promptIdFor(userId, fields.id);
    // With files: 404 before any is stored (else `start` says it, having read the conversation anyway).
    if (form) await platform.conversations.get(conversationId, userId);
    /** A send retried with its id answers with the prompt it started (nothing is stored twice). */
    const alreadySent = async () => {
      const prompt = id === undefined ? undefined : await platform.store.prompts.get(id);
      if (!prompt) return undefined;
      if (prompt.conversationId !== conversationId || prompt.userId !== userId || prompt.input !== input) {
        const message = `You sent another message with the id ${fields.id}; choose a new one.`;
        throw new HttpError(409, 'conflict', message);
      }
      return c.json({ prompt }, 202);
    };
    // Looked up first only when files come with it, so that a retry stores none of them again; otherwise the
    // store's refusal of a second prompt with this id says so (below), and a first send costs no lookup.
    const replay = form ? await alreadySent() : undefined;
    if (replay) return replay;
    const outputs = form
      ? await storeUploads(platform, form, { owner: { userId, conversationId }, canStore: canStoreFiles })
      : [];
    // An untitled conversation is named after its first message, as chat apps do, in the prompt's own write
    // (the store's event says so to the user's list).
    const title = input ? titleFrom(input) : undefined;
    let run: StartedPrompt;
    try {
      run = await platform.start({
        conversationId,
        userId,
        input,
        model,
        outputs,
        promptId: id,
        ...(title && { title }),
        // Plugins read it from the prompt: the triggers plugin's default zone and the user's local time.
        ...(fields.timeZone && { metadata: { timeZone: fields.timeZone } }),
      });
    } catch (error) {
      if (outputs.length > 0) await discardUploads(platform, outputs, { userId, conversationId });
      // The same send, retried while the first was starting (the store says busy or duplicate, as it meets it).
      if (ConflictError.is(error) || ConversationBusyError.is(error) || ConversationFullError.is(error)) {
        const replay = await alreadySent();
        if (replay) return replay;
      }
      if (ConversationBusyError.is(error)) throw busy(conversationId, error.message);
      throw error;
    }
    run.done.catch(() => {}); // the loop records its own failures
    return c.json({ prompt: run.prompt }, 202);
  });
}

function getPrompt(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/prompts/{id}',
      operationId: 'getPrompt',
      tags: tags('prompts'),
      summary: 'Read a prompt',
      description:
        'One prompt with its state (`running`, `waiting_for_approval`, `completed`, `failed`, `cancelled`), every output in order, its token usage and, once ended, why it stopped.',
      request: { params: IdParam },
      responses: {
        200: json(PromptBody, 'The prompt', promptExample),
        400: errors[400],
        401: errors[401],
        404: errors[404],
      },
    }),
    async (c) => c.json(await platform.getPrompt(c.req.valid('param').id, c.var.userId), 200),
  );
}

function cancelPrompt(app: Api, platform: Platform): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/prompts/{id}/cancel',
      operationId: 'cancelPrompt',
      tags: tags('prompts'),
      summary: 'Cancel a prompt',
      description:
        "Stops a prompt that runs (what it is doing is aborted) or waits for your decision (its pending calls end `cancelled`), as the UI's stop button does. A prompt already ended is a 409. The conversation's next queued message, if any, then runs.",
      request: { params: IdParam },
      responses: {
        200: json(PromptBody, 'The cancelled prompt', {
          ...promptExample,
          state: 'cancelled',
          output: promptExample.output.slice(0, 1),
          stopReason: { code: 'cancelled', message: 'Cancelled by the user.' },
        }),
        400: errors[400],
        401: errors[401],
        404: errors[404],
        409: errors[409],
      },
    }),
    async (c) => c.json(await platform.cancel(c.req.valid('param').id, { userId: c.var.userId }), 200),
  );
}
