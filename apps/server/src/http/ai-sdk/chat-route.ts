import { createRoute } from '@hono/zod-openapi';
import { newId, type Platform, type PromptOutput, type PromptRun, type PromptUsage } from '@tessera/core';
import type { UIMessageChunk } from 'ai';
import { tags } from '../api-reference.ts';
import { HttpError } from '../errors.ts';
import { CONVERSATION_HEADER } from '../openai-compat/conversation-match.ts';
import { waitingOn } from '../openai-compat/render.ts';
import { decisionFor, latestPrompt } from '../openai-compat/turn.ts';
import { type Api, errors } from '../routes/shared.ts';
import { decideBelow, waitingBelow } from '../waiting-below.ts';
import { chatConversation, findChatConversation } from './chat-conversation.ts';
import { type ApprovalResponse, ChatRequest, readChatRequest } from './chat-request.ts';
import { type ChunkMetadata, PromptChunks } from './prompt-chunks.ts';

export const CHAT_PATH = '/api/ai-sdk/chat';

const route = createRoute({
  method: 'post',
  path: CHAT_PATH,
  operationId: 'aiSdkChat',
  tags: tags('AI SDK'),
  summary: 'Chat (AI SDK UI message stream)',
  description:
    "For the AI SDK's `useChat` with `DefaultChatTransport({ api: '/api/ai-sdk/chat', headers: { Authorization: 'Bearer <token>' } })`. The chat `id` is your Tessera conversation (made on its first message); the last message is what is new: the user's text runs as a prompt, or the assistant's message with tool parts in `approval-responded` state (`addToolApprovalResponse`) approves or rejects the call that waits. The answer streams as UI message chunks (text, reasoning, dynamic tool parts with approval requests, `data-<type>` parts for widgets and plugins' outputs, file links) and ends with `finish`, its metadata the conversation, prompt, state and usage. See the server's README.",
  request: {
    body: {
      content: {
        'application/json': {
          schema: ChatRequest,
          example: {
            id: 'chat-4f9a2c',
            messages: [
              { id: 'msg-1', role: 'user', parts: [{ type: 'text', text: 'transfer $500 to Ada' }] },
            ],
            trigger: 'submit-message',
          },
        },
      },
      required: true,
    },
  },
  responses: {
    200: {
      description:
        'The UI message stream (Server-Sent Events, `x-vercel-ai-ui-message-stream: v1`), one JSON chunk per event; the `X-Tessera-Conversation` header names the conversation',
      headers: {
        [CONVERSATION_HEADER]: {
          description: 'The conversation of the chat',
          schema: { type: 'string' as const },
        },
      },
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    400: errors[400],
    401: errors[401],
    404: {
      ...errors[404],
      description: 'An approval answered in a chat that has no conversation of yours',
    },
    409: {
      ...errors[409],
      description:
        'A prompt of the conversation runs or waits (`conversation_busy`: answer its approval first), the conversation is full (`conversation_full`), or nothing waits for the approval answered (`not_waiting`)',
    },
    413: errors[413],
    415: errors[415],
  },
});

/** What a request starts, or resumes, and what the client has of it already. */
type Begin = {
  conversationId: string;
  promptId: string;
  known: readonly PromptOutput[];
  usageBefore: PromptUsage | undefined;
  begin: () => Promise<PromptRun>;
};

/** `POST /api/ai-sdk/chat`: the AI SDK's UI message stream protocol over Tessera's prompts. */
export function aiSdkChatRoutes(
  app: Api,
  platform: Platform,
  { maxInputChars, keepAliveMs }: { maxInputChars: number; keepAliveMs: number },
) {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const userId = c.var.userId;
    const ask = readChatRequest(body, maxInputChars);
    // The AI SDK (with its gateway's modules) loads with the first chat, not with every server.
    const { createUIMessageStream, createUIMessageStreamResponse } = await import('ai');
    const plan =
      ask.kind === 'message'
        ? await newPrompt(platform, userId, body.id, ask.input, body.model)
        : await decision(platform, userId, body.id, ask.responses);
    const { conversationId, promptId } = plan;
    const chunks = new PromptChunks({ origin: new URL(c.req.url).origin, conversationId }, plan.known);
    // Subscribed before the prompt starts or resumes, so nothing it does is missed; what comes before the
    // stream is read waits here.
    let write: ((chunk: UIMessageChunk) => void) | undefined;
    const early: UIMessageChunk[] = [];
    const unsubscribe = platform.events.subscribe({ promptId }, (event) => {
      for (const chunk of chunks.event(event)) write ? write(chunk) : early.push(chunk);
    });
    let run: PromptRun;
    try {
      run = await plan.begin(); // its errors (busy, not found, a bad decision) are answered as 4xx
    } catch (error) {
      unsubscribe();
      throw error;
    }
    const metadata: ChunkMetadata = { conversationId, promptId };
    const stream = createUIMessageStream({
      execute: async ({ writer }) => {
        writer.write({ type: 'start', messageId: promptId, messageMetadata: metadata });
        for (const chunk of early.splice(0)) writer.write(chunk);
        write = (chunk) => writer.write(chunk);
        try {
          // A client that left stops reading (the writes go nowhere); the prompt goes on and is recorded.
          const prompt = await run.done;
          for (const chunk of chunks.end(prompt, plan.usageBefore)) writer.write(chunk);
        } finally {
          unsubscribe();
        }
      },
      onError: (error) => (error instanceof Error ? error.message : 'The prompt failed.'),
    });
    return createUIMessageStreamResponse({
      stream,
      keepAliveMs,
      headers: { [CONVERSATION_HEADER]: conversationId },
    }) as never; // a streamed body, which the route's typed responses do not describe
  });
}

async function newPrompt(
  platform: Platform,
  userId: string,
  chatId: string,
  input: string,
  model: ChatRequest['model'],
): Promise<Begin> {
  const conversationId = await chatConversation(platform, userId, chatId, input);
  const promptId = newId('prm');
  return {
    conversationId,
    promptId,
    known: [],
    usageBefore: undefined,
    begin: () =>
      platform.start({
        conversationId,
        userId,
        input,
        promptId,
        ...(model && { model }),
        metadata: { aiSdk: 'chat' },
      }),
  };
}

/** The user's answer to what the chat's prompt waits on: the call (or pause) the answers name. */
async function decision(
  platform: Platform,
  userId: string,
  chatId: string,
  responses: readonly ApprovalResponse[],
): Promise<Begin> {
  const conversationId = await findChatConversation(platform, userId, chatId);
  if (!conversationId)
    throw new HttpError(404, 'not_found', `No conversation of yours for the chat ${chatId.slice(0, 100)}.`);
  const prompt = await latestPrompt(platform, conversationId, userId);
  const waiting = prompt && waitingOn(prompt);
  const response = waiting && responses.find((answer) => answer.approvalId === waiting.id);
  if (!prompt || !waiting || !response)
    throw new HttpError(
      409,
      'not_waiting',
      'Nothing of this chat waits for the approval answered: it was decided already, or never asked.',
    );
  const { approved, reason } = response;
  // A suspended call (a sub-agent waiting for the user): the answer decides what it waits on, at the bottom.
  const below = await waitingBelow(platform, prompt, userId);
  const target = below?.waiting ?? waiting;
  const decide = () =>
    platform.decide(target.id, {
      userId,
      ...decisionFor(target, approved ? 'approve' : 'reject'),
      ...(target.type === 'tool' && reason && { reason }),
    });
  return {
    conversationId,
    promptId: prompt.id,
    known: prompt.output,
    usageBefore: prompt.usage,
    begin: () => (below && below.below.length > 0 ? decideBelow(platform, prompt, userId, decide) : decide()),
  };
}
