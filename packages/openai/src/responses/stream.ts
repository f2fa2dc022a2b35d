import { ModelError, type ModelStreamEvent } from '@tessera/core';
import type { ToolNames } from '@tessera/provider-utils';
import type { Response, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import { classify } from '../errors.ts';
import { type Refusal, refusedGenerationEvents, untilRefused } from '../failed-generation.ts';
import { inOutputOrder } from './output-order.ts';

export function usageOf(usage: ResponseUsage | null | undefined) {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cachedInputTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/**
 * Responses API stream events → core stream events, in the order the model produced them (the order of the
 * output items, whatever order their events come in: see `inOutputOrder`): text, refusal and raw reasoning
 * text (`reasoning_text`, from gpt-oss on vLLM, LM Studio, Ollama, OpenRouter) as they stream; calls and
 * reasoning items whole, when done.
 */
export async function* fromResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  names: ToolNames,
): AsyncGenerator<ModelStreamEvent> {
  let calls = 0;
  const refusal: Refusal = {};
  for await (const event of untilRefused(inOutputOrder(events), refusal)) {
    switch (event.type) {
      case 'response.output_text.delta':
        yield { type: 'text-delta', delta: event.delta };
        break;
      case 'response.refusal.delta':
        yield { type: 'refusal-delta', delta: event.delta };
        break;
      case 'response.reasoning_text.delta':
        yield { type: 'reasoning-delta', delta: event.delta };
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
          const summary = (item.summary ?? []).map((part) => part.text).join('\n\n');
          const text = (item.content ?? []).map((part) => part.text).join('');
          // The whole item goes back with the next request (with its encrypted content, if any).
          const { status: _, ...providerData } = item;
          yield { type: 'reasoning', ...(summary && { summary }), ...(text && { text }), providerData };
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
          classify(undefined, [error?.code]),
        );
      }
    }
  }
  if (refusal.failed) {
    yield* refusedGenerationEvents(refusal.failed, names);
    return;
  }
  throw new ModelError('The response stream ended before the response was complete.', {
    kind: 'connection',
    retryable: true,
  });
}

/**
 * A non-streamed `Response` as the stream events that would have carried it, so that both paths go through
 * `fromResponsesStream` and give the same events: the text (or refusal) of each message part as one delta, each output
 * item done, then the event that ends the response. A response in any other state (`in_progress`, `queued`,
 * `cancelled`: background mode, which we never ask for) ends nothing, so it fails as a response cut short.
 */
export async function* responseEvents(response: Response): AsyncGenerator<ResponseStreamEvent> {
  let sequence = 0;
  for (const [index, item] of (response.output ?? []).entries()) {
    if (item.type === 'message') {
      for (const [part, content] of item.content.entries()) {
        const at = {
          item_id: item.id,
          output_index: index,
          content_index: part,
          sequence_number: sequence++,
        };
        if (content.type === 'output_text') {
          yield { type: 'response.output_text.delta', delta: content.text, logprobs: [], ...at };
        } else if (content.type === 'refusal') {
          yield { type: 'response.refusal.delta', delta: content.refusal, ...at };
        }
      }
    }
    yield { type: 'response.output_item.done', item, output_index: index, sequence_number: sequence++ };
  }
  // Some OpenAI-compatible servers leave `status` out of a finished response.
  const status = response.status ?? 'completed';
  if (status === 'completed' || status === 'incomplete' || status === 'failed') {
    yield { type: `response.${status}`, response, sequence_number: sequence };
  }
}
