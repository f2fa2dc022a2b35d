import { z } from 'zod';

/**
 * The requests of the OpenAI protocols, as far as this server reads them. Every other field OpenAI defines
 * (temperature, tools, ...) is accepted and ignored: the app's model settings and its own tools apply.
 */

/** A part of a message's content: text is read, anything else is refused in the new message. */
const ContentPart = z.looseObject({ type: z.string().max(100), text: z.string().optional() });
const Content = z.union([z.string(), z.array(ContentPart), z.null()]);

const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: Content.optional(),
});

/** A model id: one of the app's model classes (GET /v1/models). */
const Model = z.string().max(200).describe("One of the app's model classes: `normal` or `high`.");

export const ChatCompletionRequest = z
  .looseObject({
    model: Model,
    messages: z
      .array(ChatMessage)
      .min(1)
      .describe(
        "The conversation as the client has it. Only the last message, which must be the user's, is new: the earlier ones name the conversation it continues.",
      ),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
    n: z.literal(1).nullish().describe('One answer per request.'),
  })
  .meta({ id: 'ChatCompletionRequest' });
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** An item of a Responses request's `input`: a message (with or without `type: "message"`); others are ignored. */
const InputItem = z.looseObject({
  type: z.string().max(100).optional(),
  role: z.string().max(100).optional(),
  content: Content.optional(),
});

export const ResponseRequest = z
  .looseObject({
    model: Model,
    input: z
      .union([z.string(), z.array(InputItem).min(1)])
      .describe("The new user message, or a list whose last message is the user's new one."),
    previous_response_id: z
      .string()
      .max(200)
      .nullish()
      .describe('A response of yours (or a Tessera prompt id): continues its conversation.'),
    instructions: z.string().nullish().describe("Ignored: the app's instructions and your settings apply."),
    stream: z.boolean().nullish(),
    store: z
      .boolean()
      .nullish()
      .describe('Ignored: Tessera keeps every conversation (`store` is `true` in the response).'),
  })
  .meta({ id: 'ResponseRequest' });
export type ResponseRequest = z.infer<typeof ResponseRequest>;

export type ContentValue = z.infer<typeof Content> | undefined;

/** The responses, loosely: their full shapes are OpenAI's (see its API reference). */
export const ChatCompletion = z
  .looseObject({ id: z.string(), object: z.literal('chat.completion'), choices: z.array(z.unknown()) })
  .meta({ id: 'ChatCompletion' });
export const ResponseObject = z
  .looseObject({ id: z.string(), object: z.literal('response'), output: z.array(z.unknown()) })
  .meta({ id: 'Response' });
export const ModelObject = z
  .object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() })
  .meta({ id: 'Model' });
export const ModelList = z
  .object({ object: z.literal('list'), data: z.array(ModelObject) })
  .meta({ id: 'ModelList' });

/** The optional request header that names the conversation (see conversation-match.ts). */
export const ConversationHeader = z.object({
  'x-tessera-conversation': z
    .string()
    .max(200)
    .optional()
    .describe(
      'A conversation of yours to send the message to (else it is found from the earlier messages, or new)',
    ),
});
