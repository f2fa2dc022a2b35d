import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import type { ModelMessage, ModelRequest } from '@tessera/core';
import type { ToolNames } from '@tessera/provider-utils';
import { isCallData, isReasoningData, type ProviderMetadata } from './provider-data.ts';

type AssistantMessage = Extract<LanguageModelV4Message, { role: 'assistant' }>;
type AssistantPart = AssistantMessage['content'][number];
type ProviderOptions = NonNullable<AssistantPart['providerOptions']>;

/** The specification's prompt and tools for one request (the call's settings are added by the provider). */
export function callOptions(
  request: ModelRequest,
  names: ToolNames,
): Pick<LanguageModelV4CallOptions, 'prompt' | 'tools' | 'toolChoice'> {
  const tools: LanguageModelV4FunctionTool[] = request.tools.map((tool) => ({
    type: 'function',
    name: names.toApi(tool.name),
    description: tool.description,
    inputSchema: tool.parameters as LanguageModelV4FunctionTool['inputSchema'],
  }));
  return {
    prompt: toPrompt(request.instructions, request.messages, names),
    ...(tools.length > 0 && { tools, toolChoice: { type: 'auto' } }),
  };
}

/**
 * Tessera's messages as the specification's prompt: the instructions as the system message, each user
 * message, and each model response as one assistant message (its reasoning, text and calls in the order
 * they streamed), followed by one tool message with its calls' results. Reasoning goes back with the
 * provider metadata it came with (Anthropic's signature), and so does each call (Gemini's thought
 * signature); reasoning that another provider left in the record is not sent.
 */
export function toPrompt(
  instructions: string,
  messages: readonly ModelMessage[],
  names: ToolNames,
): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = instructions ? [{ role: 'system', content: instructions }] : [];
  const callMetadata = new Map<string, ProviderMetadata>();
  for (const message of messages) {
    if (message.type === 'reasoning' && isCallData(message.providerData)) {
      callMetadata.set(message.providerData.callId, message.providerData.providerMetadata);
    }
  }
  const toolNames = new Map<string, string>();
  let assistant: { message: AssistantMessage; responseId: string | undefined } | undefined;
  const assistantPart = (part: AssistantPart, responseId: string | undefined) => {
    if (!assistant || prompt.at(-1) !== assistant.message || assistant.responseId !== responseId) {
      assistant = { message: { role: 'assistant', content: [] }, responseId };
      prompt.push(assistant.message);
    }
    assistant.message.content.push(part);
  };
  const toolResult = (part: LanguageModelV4ToolResultPart) => {
    const last = prompt.at(-1);
    if (last?.role === 'tool') last.content.push(part);
    else prompt.push({ role: 'tool', content: [part] });
  };

  for (const message of messages) {
    switch (message.type) {
      case 'message':
        if (message.role === 'user')
          prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        else if (message.content !== '')
          assistantPart({ type: 'text', text: message.content }, message.responseId);
        break;
      case 'reasoning': {
        if (!isReasoningData(message.providerData)) break;
        const text = message.text ?? message.summary ?? '';
        const providerOptions = message.providerData.providerMetadata as ProviderOptions | undefined;
        if (text === '' && !providerOptions) break;
        assistantPart(
          { type: 'reasoning', text, ...(providerOptions && { providerOptions }) },
          message.responseId,
        );
        break;
      }
      case 'function_call': {
        const toolName = names.toApi(message.name);
        toolNames.set(message.callId, toolName);
        const providerOptions = callMetadata.get(message.callId) as ProviderOptions | undefined;
        assistantPart(
          {
            type: 'tool-call',
            toolCallId: message.callId,
            toolName,
            input: argumentsObject(message.arguments),
            ...(providerOptions && { providerOptions }),
          },
          message.responseId,
        );
        break;
      }
      case 'function_call_output':
        toolResult({
          type: 'tool-result',
          toolCallId: message.callId,
          toolName: toolNames.get(message.callId) ?? 'unknown',
          output: { type: 'text', value: message.output },
        });
        break;
    }
  }
  return prompt;
}

/**
 * A call's arguments as the object the APIs take. Arguments that were not a JSON object (the model's bad
 * JSON, kept raw in the record, whose result already told it so) go back as `{}`: Anthropic and Gemini
 * refuse a call whose input is not an object.
 */
function argumentsObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
