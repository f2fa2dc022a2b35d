import { ModelError, type ModelStreamEvent } from '@tessera/core';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolNames } from '../tool-names.ts';

type PartialCall = { id: string; name: string; arguments: string[] };

const FINISH = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
} as const;

/**
 * Chat Completions chunks → core stream events. Tool calls are assembled from their deltas by `index` (so
 * parallel calls stay apart) and emitted when the choice finishes; the usage chunk may come after that.
 */
export async function* fromChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  names: ToolNames,
): AsyncGenerator<ModelStreamEvent> {
  const calls = new Map<number, PartialCall>();
  let finish: ModelStreamEvent | undefined;
  let usage: ModelStreamEvent | undefined;
  for await (const chunk of chunks) {
    if (chunk.usage) {
      usage = {
        type: 'usage',
        usage: {
          inputTokens: chunk.usage.prompt_tokens ?? 0,
          outputTokens: chunk.usage.completion_tokens ?? 0,
          cachedInputTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
          reasoningTokens: chunk.usage.completion_tokens_details?.reasoning_tokens ?? 0,
        },
      };
    }
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.delta?.content) yield { type: 'text-delta', delta: choice.delta.content };
    for (const delta of choice.delta?.tool_calls ?? []) {
      let call = calls.get(delta.index);
      if (!call) {
        call = { id: '', name: '', arguments: [] };
        calls.set(delta.index, call);
      }
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.arguments.push(delta.function.arguments);
    }
    if (choice.finish_reason) {
      for (const [index, call] of [...calls].sort(([a], [b]) => a - b)) {
        yield {
          type: 'tool-call',
          callId: call.id || `call_${chunk.id}_${index}`,
          name: names.fromApi(call.name),
          arguments: call.arguments.join(''),
        };
      }
      calls.clear();
      finish = { type: 'finish', reason: FINISH[choice.finish_reason as keyof typeof FINISH] ?? 'other' };
    }
  }
  if (!finish)
    throw new ModelError('The stream ended before the answer was complete.', {
      kind: 'connection',
      retryable: true,
    });
  if (usage) yield usage;
  yield finish;
}

/**
 * A non-streamed completion as the one chunk that would carry all of it, so that both paths go through
 * `fromChatStream` and give the same events: its text as one delta, its function calls by index, the
 * finish reason and the usage.
 */
export async function* completionChunks(completion: ChatCompletion): AsyncGenerator<ChatCompletionChunk> {
  yield {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices: (completion.choices ?? []).map((choice) => ({
      index: choice.index,
      delta: {
        role: 'assistant',
        content: choice.message?.content ?? null,
        // By what they carry, not by `type`, which some compatible servers leave out (as streams do too).
        tool_calls: (choice.message?.tool_calls ?? []).flatMap((call, index) =>
          'function' in call ? [{ index, id: call.id, type: 'function', function: call.function }] : [],
        ),
      },
      finish_reason: choice.finish_reason,
      logprobs: choice.logprobs ?? null,
    })),
    usage: completion.usage,
  };
}
