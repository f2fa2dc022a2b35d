import type { ModelMessage, ModelRequest } from '@tessera/core';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ModelSettings } from '../options.ts';
import { functionParameters } from '../strict-schema.ts';
import type { ToolNames } from '../tool-names.ts';

/**
 * Core messages as Chat Completions messages: assistant text and the function calls after it become one
 * assistant message with `tool_calls`, followed by one `tool` message per result. Reasoning items are
 * dropped: Chat Completions has no way to send them back.
 */
export function chatMessages(request: ModelRequest, names: ToolNames): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  let assistant: ChatCompletionAssistantMessageParam | undefined;
  const flush = () => {
    if (assistant) messages.push(assistant);
    assistant = undefined;
  };
  const pendingOutputs: ChatCompletionMessageParam[] = [];
  const flushOutputs = () => {
    messages.push(...pendingOutputs.splice(0));
  };
  for (const message of request.messages as ModelMessage[]) {
    switch (message.type) {
      case 'message':
        flush();
        flushOutputs();
        if (message.role === 'assistant') assistant = { role: 'assistant', content: message.content };
        else messages.push({ role: 'user', content: message.content });
        break;
      case 'function_call':
        if (pendingOutputs.length > 0) {
          flush();
          flushOutputs();
        }
        assistant ??= { role: 'assistant', content: null };
        assistant.tool_calls = [
          ...(assistant.tool_calls ?? []),
          {
            id: message.callId,
            type: 'function',
            function: { name: names.toApi(message.name), arguments: message.arguments },
          },
        ];
        break;
      case 'function_call_output':
        pendingOutputs.push({ role: 'tool', tool_call_id: message.callId, content: message.output });
        break;
      case 'reasoning':
        break;
    }
  }
  flush();
  flushOutputs();
  return messages;
}

/** The `chat.completions.create` body for a core request, without the streaming fields (see `streamed`). */
export function chatRequest(
  request: ModelRequest,
  names: ToolNames,
  settings: ModelSettings,
): ChatCompletionCreateParamsNonStreaming {
  return {
    model: request.model,
    messages: chatMessages(request, names),
    ...(request.tools.length > 0 && {
      tools: request.tools.map((tool) => {
        const { parameters, strict } = functionParameters(tool.parameters);
        return {
          type: 'function' as const,
          function: { name: names.toApi(tool.name), description: tool.description, parameters, strict },
        };
      }),
    }),
    ...(settings.temperature !== undefined && { temperature: settings.temperature }),
    ...(settings.maxOutputTokens !== undefined && { max_completion_tokens: settings.maxOutputTokens }),
    ...(settings.reasoningEffort !== undefined && { reasoning_effort: settings.reasoningEffort }),
  };
}

/**
 * The same body, streamed. Usage comes in an extra chunk only when asked for; `stream_options` is sent only
 * here, since the API rejects it on a call that does not stream.
 */
export const streamed = (
  body: ChatCompletionCreateParamsNonStreaming,
): ChatCompletionCreateParamsStreaming => ({
  ...body,
  stream: true,
  stream_options: { include_usage: true },
});
