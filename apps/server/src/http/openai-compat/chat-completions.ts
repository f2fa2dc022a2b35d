import { createRoute } from '@hono/zod-openapi';
import { newId, type Platform } from '@tessera/core';
import { streamSSE } from 'hono/streaming';
import { HttpError } from '../errors.ts';
import { type Api, json } from '../routes/shared.ts';
import { CONVERSATION_HEADER } from './conversation-match.ts';
import { OpenAIErrorSchema, openAIError } from './errors.ts';
import { keepAlive } from './keep-alive.ts';
import { openAIErrorResponses, TAG } from './models.ts';
import { startTurn } from './request.ts';
import { ChatCompletion, ChatCompletionRequest, ConversationHeader } from './schemas.ts';
import type { TurnUsage } from './turn.ts';

const usageOf = (usage: TurnUsage | undefined) => ({
  prompt_tokens: usage?.inputTokens ?? 0,
  completion_tokens: usage?.outputTokens ?? 0,
  total_tokens: usage?.totalTokens ?? 0,
  prompt_tokens_details: { cached_tokens: usage?.cachedInputTokens ?? 0 },
  completion_tokens_details: { reasoning_tokens: usage?.reasoningTokens ?? 0 },
});

const conversationHeader = {
  [CONVERSATION_HEADER]: {
    description: 'The conversation the message went to',
    schema: { type: 'string' as const },
  },
};

const route = createRoute({
  method: 'post',
  path: '/v1/chat/completions',
  operationId: 'openaiCreateChatCompletion',
  tags: [TAG],
  summary: 'Create a chat completion (OpenAI)',
  description:
    "The last user message runs as a prompt; with `stream: true` the answer streams. For OpenAI clients (the `openai` SDKs, Open WebUI, editors): the API key is your Tessera token, the model a model class. The messages before the last name the conversation it continues (or the `X-Tessera-Conversation` header does); the app's tools run on the server and the answer is text. When a tool call needs approval the answer ends by asking, and a reply of `approve` or `reject` decides it. See the server's README.",
  request: {
    headers: ConversationHeader,
    body: {
      content: {
        'application/json': {
          schema: ChatCompletionRequest,
          example: { model: 'normal', messages: [{ role: 'user', content: 'weather in Rome' }] },
        },
      },
      required: true,
    },
  },
  responses: {
    200: {
      description:
        'The answer: a `chat.completion`, or with `stream: true` `chat.completion.chunk` events ending with `data: [DONE]`',
      headers: conversationHeader,
      content: {
        'application/json': {
          schema: ChatCompletion,
          example: {
            id: 'chatcmpl_V1StGXR8Z5jdHi6B',
            object: 'chat.completion',
            created: 1795837767,
            model: 'normal',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: 'It is 15 °C in Rome now, between 9 °C and 18 °C today.',
                },
                finish_reason: 'stop',
              },
            ],
          },
        },
        'text/event-stream': { schema: { type: 'string' } },
      },
    },
    ...openAIErrorResponses,
    409: json(
      OpenAIErrorSchema,
      'A prompt of the conversation is running (`conversation_busy`), or the conversation is full (`conversation_full`)',
    ),
    413: json(OpenAIErrorSchema, 'The body or the new message is too large'),
    415: json(OpenAIErrorSchema, 'A body that is not JSON (`Content-Type: application/json`)'),
    500: json(OpenAIErrorSchema, 'The prompt failed (`prompt_failed`); not to be retried as is'),
  },
});

/** `POST /v1/chat/completions`, whole or streamed. */
export function chatCompletionRoutes(
  app: Api,
  platform: Platform,
  { maxInputChars }: { maxInputChars: number },
) {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const turn = await startTurn(c, platform, {
      model: body.model,
      messages: body.messages,
      field: 'messages',
      via: 'chat.completions',
      maxInputChars,
    });
    const id = newId('chatcmpl');
    const created = Math.floor(Date.now() / 1000);
    const model = body.model;
    if (!body.stream) {
      const end = await turn.finish();
      if (end.failure) throw new HttpError(500, 'prompt_failed', end.failure);
      const message = { role: 'assistant' as const, content: turn.feed.text, refusal: null };
      const choice = { index: 0, message, logprobs: null, finish_reason: end.finish };
      return c.json(
        {
          id,
          object: 'chat.completion' as const,
          created,
          model,
          choices: [choice],
          usage: usageOf(end.usage),
        },
        200,
      );
    }
    const chunk = (delta: object, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    return streamSSE(c, async (stream) => {
      const send = (data: object | string) =>
        stream.writeSSE({ data: typeof data === 'string' ? data : JSON.stringify(data) });
      await send(chunk({ role: 'assistant', content: '', refusal: null }, null));
      // Remembered when the prompt stops, whether or not this client still reads.
      const finished = turn.finish();
      const stopPings = keepAlive(stream);
      finished.then(stopPings, stopPings);
      // A client that left stops reading; the prompt goes on and is recorded (and its transcript remembered).
      for await (const piece of turn.feed.pieces())
        if (!stream.aborted) await send(chunk({ content: piece }, null));
      const end = await finished;
      if (end.failure) return void (await send(openAIError(500, 'prompt_failed', end.failure)));
      await send(chunk({}, end.finish));
      if (body.stream_options?.include_usage)
        await send({ ...chunk({}, null), choices: [], usage: usageOf(end.usage) });
      await send('[DONE]');
    });
  });
}
