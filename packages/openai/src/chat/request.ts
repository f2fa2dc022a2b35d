import type { ModelMessage, ModelRequest } from '@tessera/core';
import type { ToolNames } from '@tessera/provider-utils';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ModelSettings } from '../options.ts';
import { functionParameters } from '../strict-schema.ts';
import { isChatReasoningData, type ReasoningDetail } from './reasoning.ts';

/** An assistant message being put together, with the reasoning it will carry. */
type Turn = {
  message: ChatCompletionAssistantMessageParam & Record<string, unknown>;
  responseId: string | undefined;
  reasoning: string[];
  field: 'reasoning' | 'reasoning_content';
  details: ReasoningDetail[];
};

/**
 * Core messages as Chat Completions messages. The items of one model response (same `responseId`: its
 * text, its calls, its reasoning) become one assistant message with `content` and `tool_calls`, followed by
 * one `tool` message per result; items without a `responseId` (older records) are grouped as they come,
 * text and the calls right after it. Reasoning goes back where servers need it: its text on an assistant
 * message that carries tool calls (DeepSeek's thinking mode answers 400 without it), in the field it came
 * in (`reasoning_content`, or `reasoning` for Groq, Ollama and OpenRouter), and OpenRouter's
 * `reasoning_details` as they were (Gemini answers 400 without its thought signatures).
 */
export function chatMessages(request: ModelRequest, names: ToolNames): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  let turn: Turn | undefined;
  const outputs: ChatCompletionMessageParam[] = [];
  const flush = () => {
    if (turn) messages.push(finished(turn));
    turn = undefined;
    messages.push(...outputs.splice(0));
  };
  /** The assistant message an item of `responseId` belongs to: the open one, or a new one. */
  const assistantFor = (responseId: string | undefined, joins: boolean): Turn => {
    if (!turn || outputs.length > 0 || !joins || turn.responseId !== responseId) flush();
    turn ??= {
      message: { role: 'assistant', content: null },
      responseId,
      reasoning: [],
      field: 'reasoning_content',
      details: [],
    };
    return turn;
  };
  for (const message of request.messages as ModelMessage[]) {
    switch (message.type) {
      case 'message': {
        if (message.role === 'user') {
          flush();
          messages.push({ role: 'user', content: message.content });
          break;
        }
        // Text of one response joins the message its reasoning opened; without ids, text opens a message.
        const open = assistantFor(message.responseId, message.responseId !== undefined);
        const content = open.message.content;
        open.message.content = typeof content === 'string' ? content + message.content : message.content;
        break;
      }
      case 'function_call': {
        const open = assistantFor(message.responseId, true);
        open.message.tool_calls = [
          ...(open.message.tool_calls ?? []),
          {
            id: message.callId,
            type: 'function',
            function: { name: names.toApi(message.name), arguments: message.arguments },
          },
        ];
        break;
      }
      case 'function_call_output':
        outputs.push({ role: 'tool', tool_call_id: message.callId, content: message.output });
        break;
      case 'reasoning': {
        const data = isChatReasoningData(message.providerData) ? message.providerData : undefined;
        // Reasoning from the Responses API (its own items) has nothing Chat Completions can take.
        if (!message.text && !data?.reasoning_details) break;
        const open = assistantFor(message.responseId, message.responseId !== undefined);
        if (message.text) open.reasoning.push(message.text);
        if (data?.field) open.field = data.field;
        if (data?.reasoning_details) open.details.push(...data.reasoning_details);
        break;
      }
    }
  }
  flush();
  return messages.filter(
    (message) => message.role !== 'assistant' || message.content !== null || message.tool_calls,
  );
}

function finished({ message, reasoning, field, details }: Turn): ChatCompletionMessageParam {
  if (details.length > 0) return { ...message, reasoning_details: details } as ChatCompletionMessageParam;
  if (reasoning.length > 0 && message.tool_calls) return { ...message, [field]: reasoning.join('') };
  return message;
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
