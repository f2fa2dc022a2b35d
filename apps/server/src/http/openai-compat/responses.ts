import { createRoute } from '@hono/zod-openapi';
import { newId, type Platform } from '@tessera/core';
import { streamSSE } from 'hono/streaming';
import { HttpError } from '../errors.ts';
import { type Api, json } from '../routes/shared.ts';
import { CONVERSATION_HEADER, responseIdOf } from './conversation-match.ts';
import { OpenAIErrorSchema } from './errors.ts';
import { keepAlive } from './keep-alive.ts';
import { openAIErrorResponses, TAG } from './models.ts';
import { startTurn } from './request.ts';
import { ConversationHeader, ResponseObject, ResponseRequest } from './schemas.ts';
import type { TurnEnd, TurnUsage } from './turn.ts';

const usageOf = (usage: TurnUsage | undefined) => ({
  input_tokens: usage?.inputTokens ?? 0,
  input_tokens_details: { cached_tokens: usage?.cachedInputTokens ?? 0 },
  output_tokens: usage?.outputTokens ?? 0,
  output_tokens_details: { reasoning_tokens: usage?.reasoningTokens ?? 0 },
  total_tokens: usage?.totalTokens ?? 0,
});

/** The answer's one output item: an assistant message with its text. */
const messageItem = (id: string, text: string, status: 'in_progress' | 'completed') => ({
  id,
  type: 'message' as const,
  status,
  role: 'assistant' as const,
  content: status === 'completed' ? [textPart(text)] : [],
});
const textPart = (text: string) => ({ type: 'output_text' as const, annotations: [], logprobs: [], text });

/** A Responses API status from how the turn ended (a prompt waiting for approval has answered: completed). */
function statusOf(end: TurnEnd) {
  if (end.failure)
    return { status: 'failed' as const, error: { code: 'server_error', message: end.failure } };
  if (end.finish === 'length')
    return { status: 'incomplete' as const, incomplete_details: { reason: 'max_output_tokens' } };
  if (end.finish === 'content_filter')
    return { status: 'incomplete' as const, incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed' as const };
}

const route = createRoute({
  method: 'post',
  path: '/v1/responses',
  operationId: 'openaiCreateResponse',
  tags: [TAG],
  summary: 'Create a response (OpenAI)',
  description:
    "The new user message runs as a prompt; with `stream: true` its events stream. For OpenAI clients: the API key is your Tessera token, the model a model class. `previous_response_id` (or the `X-Tessera-Conversation` header, or earlier messages in `input` as Chat Completions matches them) names the conversation it continues; the app's tools run on the server and the answer is text. When a tool call needs approval the answer ends by asking, and a reply of `approve` or `reject` decides it. `instructions` are ignored and every response is stored. See the server's README.",
  request: {
    headers: ConversationHeader,
    body: {
      content: {
        'application/json': {
          schema: ResponseRequest,
          example: { model: 'normal', input: 'weather in Rome' },
        },
      },
      required: true,
    },
  },
  responses: {
    200: {
      description:
        'The response, or with `stream: true` its events (`response.created` … `response.completed`)',
      headers: {
        [CONVERSATION_HEADER]: {
          description: 'The conversation the message went to',
          schema: { type: 'string' as const },
        },
      },
      content: {
        'application/json': {
          schema: ResponseObject,
          example: {
            id: 'prm_rdWWhAF2Yn4nXxVq',
            object: 'response',
            created_at: 1795837767,
            status: 'completed',
            model: 'normal',
            output: [
              {
                type: 'message',
                id: 'out__PsgyIcbItpKv8m0',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: 'It is 15 °C in Rome now.', annotations: [] }],
              },
            ],
            store: true,
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

/** `POST /v1/responses`, whole or streamed. */
export function responseRoutes(app: Api, platform: Platform, { maxInputChars }: { maxInputChars: number }) {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
    const turn = await startTurn(c, platform, {
      model: body.model,
      messages: input,
      field: 'input',
      previousResponseId: body.previous_response_id,
      via: 'responses',
      maxInputChars,
    });
    const id = responseIdOf(turn.promptId, newId('r'));
    const messageId = newId('msg');
    const createdAt = Math.floor(Date.now() / 1000);
    /** The response object, as it is now: in progress, or ended as `end` says. */
    const response = (end?: TurnEnd) => ({
      id,
      object: 'response' as const,
      created_at: createdAt,
      status: 'in_progress' as 'in_progress' | 'completed' | 'incomplete' | 'failed',
      error: null as { code: string; message: string } | null,
      incomplete_details: null as { reason: string } | null,
      instructions: null,
      metadata: { tessera_conversation: turn.conversationId },
      model: body.model,
      output: [] as ReturnType<typeof messageItem>[],
      parallel_tool_calls: true,
      previous_response_id: body.previous_response_id ?? null,
      store: true,
      temperature: null,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: null,
      truncation: 'disabled',
      usage: null as ReturnType<typeof usageOf> | null,
      ...(end && {
        ...statusOf(end),
        completed_at: Math.floor(Date.now() / 1000),
        output: [messageItem(messageId, turn.feed.text, 'completed')],
        usage: usageOf(end.usage),
      }),
    });
    if (!body.stream) {
      const end = await turn.finish();
      if (end.failure) throw new HttpError(500, 'prompt_failed', end.failure);
      return c.json(response(end), 200);
    }
    return streamSSE(c, async (stream) => {
      let sequence = 0;
      const send = (type: string, fields: object) =>
        stream.writeSSE({
          event: type,
          data: JSON.stringify({ type, ...fields, sequence_number: sequence++ }),
        });
      const at = { item_id: messageId, output_index: 0, content_index: 0 };
      await send('response.created', { response: response() });
      await send('response.in_progress', { response: response() });
      await send('response.output_item.added', {
        output_index: 0,
        item: messageItem(messageId, '', 'in_progress'),
      });
      await send('response.content_part.added', { ...at, part: textPart('') });
      // Remembered when the prompt stops, whether or not this client still reads.
      const finished = turn.finish();
      const stopPings = keepAlive(stream);
      finished.then(stopPings, stopPings);
      // A client that left stops reading; the prompt goes on and is recorded (and its transcript remembered).
      for await (const delta of turn.feed.pieces())
        if (!stream.aborted) await send('response.output_text.delta', { ...at, delta, logprobs: [] });
      const end = await finished;
      const text = turn.feed.text;
      await send('response.output_text.done', { ...at, text, logprobs: [] });
      await send('response.content_part.done', { ...at, part: textPart(text) });
      await send('response.output_item.done', {
        output_index: 0,
        item: messageItem(messageId, text, 'completed'),
      });
      const final = response(end);
      await send(`response.${final.status}`, { response: final });
    });
  });
}
