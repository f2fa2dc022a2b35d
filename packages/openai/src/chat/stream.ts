import { ModelError, type ModelStreamEvent } from '@tessera/core';
import type { ToolNames } from '@tessera/provider-utils';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { type Refusal, refusedGenerationEvents, untilRefused } from '../failed-generation.ts';
import { type ChatReasoningData, mergeReasoningDetails, type ReasoningDetail } from './reasoning.ts';

type PartialCall = { index: number | undefined; id: string; name: string; arguments: string[] };

/** What compatible servers add to a delta (and to a whole message) beyond the SDK's types. */
type Extras = {
  refusal?: string | null;
  /** DeepSeek, xAI, llama.cpp, vLLM (older), Moonshot, Z.ai. */
  reasoning_content?: string | null;
  /** Groq, Ollama, OpenRouter, vLLM (newer). */
  reasoning?: string | null;
  /** OpenRouter: the model's reasoning blocks (Gemini's thought signatures, encrypted reasoning). */
  reasoning_details?: ReasoningDetail[] | null;
};
type ToolCallDelta = {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
};

const FINISH = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
} as const;

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * Chat Completions chunks → core stream events, in the order the model produced them: reasoning text
 * (`reasoning_content` or `reasoning`, closed by a `reasoning` event that carries what must be sent back),
 * refusal and text deltas, and tool calls, each emitted once complete (when the stream moves on to
 * something else, or the choice finishes). The usage chunk may come after the finish.
 *
 * Calls are told apart by `index` as the API does, and by `id` where compatible servers fall short: a new
 * id starts a new call even at an index already used (all calls at `index: 0`), several calls may come in
 * one delta, and a delta without an index continues the call before it. A call id left out is made up.
 */
export async function* fromChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  names: ToolNames,
): AsyncGenerator<ModelStreamEvent> {
  const calls = new PartialCalls(names);
  let reasoning: { field?: 'reasoning'; details: ReasoningDetail[] } | undefined;
  let finish: ModelStreamEvent | undefined;
  let usage: ModelStreamEvent | undefined;
  let responseId = '';
  const refusal: Refusal = {};

  function* closeReasoning(): Generator<ModelStreamEvent> {
    if (!reasoning) return;
    const data: ChatReasoningData = {
      ...(reasoning.field && { field: reasoning.field }),
      ...(reasoning.details.length > 0 && { reasoning_details: reasoning.details }),
    };
    reasoning = undefined;
    yield { type: 'reasoning', ...(Object.keys(data).length > 0 && { providerData: data }) };
  }

  for await (const chunk of untilRefused(chunks, refusal)) {
    responseId ||= chunk.id ?? '';
    if (chunk.usage) usage = usageEvent(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & Extras;

    const thought = delta.reasoning_content || delta.reasoning;
    if (thought || delta.reasoning_details?.length) {
      yield* calls.flush(responseId);
      reasoning ??= { details: [] };
      if (!delta.reasoning_content && delta.reasoning) reasoning.field = 'reasoning';
      if (delta.reasoning_details?.length) mergeReasoningDetails(reasoning.details, delta.reasoning_details);
      if (thought) yield { type: 'reasoning-delta', delta: thought };
    }
    if (delta.refusal) {
      yield* closeReasoning();
      yield* calls.flush(responseId);
      yield { type: 'refusal-delta', delta: delta.refusal };
    }
    if (delta.content) {
      yield* closeReasoning();
      yield* calls.flush(responseId);
      yield { type: 'text-delta', delta: delta.content };
    }
    for (const part of (delta.tool_calls ?? []) as ToolCallDelta[]) {
      yield* closeReasoning();
      calls.add(part);
    }
    if (choice.finish_reason) {
      yield* closeReasoning();
      yield* calls.flush(responseId);
      finish = { type: 'finish', reason: FINISH[choice.finish_reason as keyof typeof FINISH] ?? 'other' };
    }
  }
  if (refusal.failed) {
    // What came before the refused tool call stands; the refused generation goes back to the model.
    yield* closeReasoning();
    yield* calls.flush(responseId);
    yield* refusedGenerationEvents(refusal.failed, names);
    return;
  }
  if (!finish)
    throw new ModelError('The stream ended before the answer was complete.', {
      kind: 'connection',
      retryable: true,
    });
  if (usage) yield usage;
  yield finish;
}

const usageEvent = (usage: CompletionUsage): ModelStreamEvent => ({
  type: 'usage',
  usage: {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  },
});

/** A stream's tool calls, put together from their deltas (told apart as `fromChatStream` says). */
class PartialCalls {
  #calls: PartialCall[] = [];
  /** Calls emitted so far, for the ids made up for calls without one. */
  #made = 0;

  readonly #names: ToolNames;

  constructor(names: ToolNames) {
    this.#names = names;
  }

  /** Adds a delta to the call it continues, or starts a new one. */
  add(delta: ToolCallDelta): void {
    const call = this.#callFor(delta);
    const name = delta.function?.name;
    if (name && name !== call.name) call.name += name;
    if (delta.function?.arguments) call.arguments.push(delta.function.arguments);
  }

  /** The calls so far, each as one event: the stream has moved on, so they are complete. */
  *flush(responseId: string): Generator<ModelStreamEvent> {
    for (const call of this.#calls) {
      this.#made++;
      yield {
        type: 'tool-call',
        callId: call.id || `call_${responseId}_${this.#made}`,
        name: this.#names.fromApi(call.name),
        arguments: call.arguments.join(''),
      };
    }
    this.#calls = [];
  }

  #callFor(delta: ToolCallDelta): PartialCall {
    const id = delta.id || undefined;
    const last = this.#calls.at(-1);
    let call: PartialCall | undefined;
    if (id !== undefined) call = this.#calls.find((known) => known.id === id);
    else if (delta.index === undefined) call = last;
    else call = this.#calls.findLast((known) => known.index === delta.index);
    // Without ids, a name (with arguments, or another name) after complete arguments starts the next call.
    const name = delta.function?.name;
    if (
      call &&
      id === undefined &&
      name &&
      call.name &&
      (name !== call.name || delta.function?.arguments) &&
      isJson(call.arguments.join(''))
    ) {
      call = undefined;
    }
    if (!call) {
      call = { index: delta.index, id: id ?? '', name: '', arguments: [] };
      this.#calls.push(call);
    }
    return call;
  }
}

/**
 * A non-streamed completion as the one chunk that would carry all of it, so that both paths go through
 * `fromChatStream` and give the same events: its reasoning, refusal and text each as one delta, its
 * function calls by index, the finish reason and the usage.
 */
export async function* completionChunks(completion: ChatCompletion): AsyncGenerator<ChatCompletionChunk> {
  yield {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices: (completion.choices ?? []).map((choice) => {
      const message = (choice.message ?? {}) as ChatCompletion.Choice['message'] & Extras;
      const extras: Extras = {
        ...(message.reasoning_content && { reasoning_content: message.reasoning_content }),
        ...(message.reasoning && { reasoning: message.reasoning }),
        ...(message.reasoning_details && { reasoning_details: message.reasoning_details }),
      };
      return {
        index: choice.index,
        delta: {
          role: 'assistant' as const,
          content: message.content ?? null,
          refusal: message.refusal ?? null,
          ...extras,
          // By what they carry, not by `type`, which some compatible servers leave out (as streams do too).
          tool_calls: (message.tool_calls ?? []).flatMap((call, index) =>
            'function' in call
              ? [{ index, id: call.id, type: 'function' as const, function: call.function }]
              : [],
          ),
        },
        finish_reason: choice.finish_reason,
        logprobs: choice.logprobs ?? null,
      };
    }),
    usage: completion.usage,
  };
}
