import { ModelError, type ModelStreamEvent } from '@tessera/core';
import type { ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import type { ToolNames } from '../tool-names.ts';

export function usageOf(usage: ResponseUsage | null | undefined) {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cachedInputTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** Responses API stream events → core stream events. Items are taken whole, when done. */
export async function* fromResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  names: ToolNames,
): AsyncGenerator<ModelStreamEvent> {
  let calls = 0;
  for await (const event of events) {
    switch (event.type) {
      case 'response.output_text.delta':
        yield { type: 'text-delta', delta: event.delta };
        break;
      case 'response.output_item.done': {
        const item = event.item;
        if (item.type === 'function_call') {
          calls++;
          yield {
            type: 'tool-call',
            callId: item.call_id,
            name: names.fromApi(item.name),
            arguments: item.arguments,
          };
        } else if (item.type === 'reasoning') {
          const summary = item.summary.map((part) => part.text).join('\n\n');
          // The whole item goes back with the next request (with its encrypted content, if any).
          const { status: _, ...providerData } = item;
          yield { type: 'reasoning', ...(summary && { summary }), providerData };
        }
        break;
      }
      case 'response.completed':
        yield { type: 'usage', usage: usageOf(event.response.usage) };
        yield { type: 'finish', reason: calls > 0 ? 'tool_calls' : 'stop' };
        return;
      case 'response.incomplete': {
        yield { type: 'usage', usage: usageOf(event.response.usage) };
        const reason = event.response.incomplete_details?.reason;
        yield {
          type: 'finish',
          reason:
            reason === 'content_filter'
              ? 'content_filter'
              : reason === 'max_output_tokens'
                ? 'length'
                : 'other',
        };
        return;
      }
      case 'response.failed': {
        const error = event.response.error;
        throw new ModelError(
          `The model failed: ${error?.message ?? 'unknown error'}${error?.code ? ` (${error.code})` : ''}`,
          {
            kind: error?.code === 'rate_limit_exceeded' ? 'rate_limit' : 'server',
            retryable: error?.code === 'server_error' || error?.code === 'rate_limit_exceeded',
          },
        );
      }
    }
  }
  throw new ModelError('The response stream ended before the response was complete.', {
    kind: 'connection',
    retryable: true,
  });
}
