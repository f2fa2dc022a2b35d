import type { ModelMessage, ModelRequest } from '@tessera/core';
import type { ToolNames } from '@tessera/provider-utils';
import type {
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { ModelSettings } from '../options.ts';
import { functionParameters } from '../strict-schema.ts';

/** One core message as Responses API input; reasoning without its provider item (or its content) is left out. */
function inputItem(message: ModelMessage, names: ToolNames): ResponseInputItem | undefined {
  switch (message.type) {
    case 'message':
      return { role: message.role, content: message.content };
    case 'function_call':
      return {
        type: 'function_call',
        call_id: message.callId,
        name: names.toApi(message.name),
        arguments: message.arguments,
      };
    case 'function_call_output':
      return { type: 'function_call_output', call_id: message.callId, output: message.output };
    case 'reasoning':
      return sendable(message.providerData) ? (message.providerData as ResponseInputItem) : undefined;
  }
}

/**
 * Whether a reasoning item can go back: we never store responses (`store: false`), so OpenAI knows the item
 * only by its encrypted content. Without it (a reasoning model asked for no `reasoningEffort`, so no
 * `include`), the API would look the id up and fail the whole request with a 404 ("Items are not persisted
 * when `store` is set to false"), so such an item is left out. Servers that run gpt-oss (vLLM, LM Studio,
 * Ollama) give its reasoning as text instead, which the model needs back to continue after its calls.
 */
const sendable = (data: unknown): boolean => {
  if (typeof data !== 'object' || data === null) return false;
  const item = data as { type?: unknown; encrypted_content?: unknown; content?: unknown };
  return (
    item.type === 'reasoning' &&
    (typeof item.encrypted_content === 'string' ||
      (Array.isArray(item.content) &&
        item.content.some((part: { type?: unknown }) => part?.type === 'reasoning_text')))
  );
};

/** The `responses.create` body for a core request, without `stream` (see `streamed`). */
export function responsesRequest(
  request: ModelRequest,
  names: ToolNames,
  settings: ModelSettings,
): ResponseCreateParamsNonStreaming {
  const input = request.messages.flatMap((message) => inputItem(message, names) ?? []);
  return {
    model: request.model,
    store: false,
    ...(request.instructions && { instructions: request.instructions }),
    input,
    ...(request.tools.length > 0 && {
      tools: request.tools.map((tool) => ({
        type: 'function' as const,
        name: names.toApi(tool.name),
        description: tool.description,
        ...functionParameters(tool.parameters),
      })),
    }),
    ...(settings.temperature !== undefined && { temperature: settings.temperature }),
    ...(settings.maxOutputTokens !== undefined && { max_output_tokens: settings.maxOutputTokens }),
    ...(settings.reasoningEffort !== undefined && {
      reasoning: { effort: settings.reasoningEffort, summary: 'auto' },
      // Without storage, reasoning is only usable in the next turn if its encrypted content comes back.
      include: ['reasoning.encrypted_content'],
    }),
  };
}

/** The same body, streamed. */
export const streamed = (body: ResponseCreateParamsNonStreaming): ResponseCreateParamsStreaming => ({
  ...body,
  stream: true,
});
