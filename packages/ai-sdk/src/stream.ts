import type {
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { type FinishReason, ModelError, type ModelStreamEvent, type ModelUsage } from '@tessera/core';
import type { ToolNames } from '@tessera/provider-utils';
import { toModelError } from './errors.ts';
import {
  type CallData,
  mergeMetadata,
  metadataOf,
  type ProviderMetadata,
  type ReasoningData,
} from './provider-data.ts';

type Block = { chunks: string[]; metadata: ProviderMetadata | undefined };

/**
 * The specification's stream parts as Tessera's events, in the order the model produced them: text deltas;
 * reasoning deltas, and at each reasoning block's end its whole text with the provider metadata that must go
 * back (Anthropic's signature); each complete tool call (with its metadata, Gemini's thought signature,
 * recorded just before it); usage and the finish reason. Tools the provider ran itself, sources, files and
 * the rest are not Tessera's and are passed over. An error part ends the call with its `ModelError`, and so
 * does a stream that ends before it finished.
 */
export async function* fromStreamParts(
  parts: AsyncIterable<unknown>,
  names: ToolNames,
): AsyncGenerator<ModelStreamEvent> {
  const open = new Map<string, Block>();
  function* close(id: string, metadata?: unknown): Generator<ModelStreamEvent> {
    const block = open.get(id);
    if (!block) return;
    open.delete(id);
    const providerMetadata = mergeMetadata(block.metadata, metadata);
    const text = block.chunks.join('');
    const providerData: ReasoningData = { aiSdk: 'reasoning', ...(providerMetadata && { providerMetadata }) };
    yield { type: 'reasoning', ...(text && { text }), providerData };
  }

  for await (const raw of parts) {
    const part = raw as LanguageModelV4StreamPart;
    switch (part.type) {
      case 'text-delta':
        if (typeof part.delta === 'string' && part.delta !== '')
          yield { type: 'text-delta', delta: part.delta };
        break;
      case 'reasoning-start':
        open.set(part.id, { chunks: [], metadata: metadataOf(part.providerMetadata) });
        break;
      case 'reasoning-delta': {
        const block = open.get(part.id) ?? { chunks: [], metadata: undefined };
        open.set(part.id, block);
        block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
        if (typeof part.delta === 'string' && part.delta !== '') {
          block.chunks.push(part.delta);
          yield { type: 'reasoning-delta', delta: part.delta };
        }
        break;
      }
      case 'reasoning-end':
        yield* close(part.id, part.providerMetadata);
        break;
      case 'tool-call': {
        // A tool the provider ran itself (web search, code execution) is not one of Tessera's.
        if (part.providerExecuted) break;
        for (const id of [...open.keys()]) yield* close(id);
        const providerMetadata = metadataOf(part.providerMetadata);
        if (providerMetadata) {
          const providerData: CallData = { aiSdk: 'tool-call', callId: part.toolCallId, providerMetadata };
          yield { type: 'reasoning', providerData };
        }
        yield {
          type: 'tool-call',
          callId: String(part.toolCallId),
          name: names.fromApi(String(part.toolName)),
          arguments: typeof part.input === 'string' && part.input !== '' ? part.input : '{}',
        };
        break;
      }
      case 'finish':
        for (const id of [...open.keys()]) yield* close(id);
        // Thrown before its usage, which would count as output and keep the call from being retried.
        if (part.finishReason?.unified === 'interrupted') {
          throw new ModelError('The model stream ended before the answer was complete.', {
            kind: 'connection',
            retryable: true,
          });
        }
        yield { type: 'usage', usage: usageOf(part.usage) };
        yield { type: 'finish', reason: finishReasonOf(part.finishReason) };
        return;
      case 'error':
        throw toModelError(part.error);
      default:
        // stream-start (warnings), response-metadata, text-start/-end, tool-input-*, sources, files,
        // provider-run tool results, approvals of provider tools, custom content, pings, raw chunks.
        break;
    }
  }
  throw new ModelError('The model stream ended without finishing.', { kind: 'connection', retryable: true });
}

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** Usage: all input tokens (cache reads and writes included), of which `cachedInputTokens` were read from cache. */
export function usageOf(usage: LanguageModelV4Usage | undefined): ModelUsage {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  const parts = [input?.noCache, input?.cacheRead, input?.cacheWrite].map(count);
  const inputTokens =
    count(input?.total) ??
    (parts.some((n) => n !== undefined) ? parts.reduce<number>((a, n) => a + (n ?? 0), 0) : 0);
  const cachedInputTokens = count(input?.cacheRead);
  const reasoningTokens = count(output?.reasoning);
  return {
    inputTokens,
    outputTokens: count(output?.total) ?? (count(output?.text) ?? 0) + (reasoningTokens ?? 0),
    ...(cachedInputTokens !== undefined && { cachedInputTokens }),
    ...(reasoningTokens !== undefined && { reasoningTokens }),
  };
}

export function finishReasonOf(reason: LanguageModelV4FinishReason | undefined): FinishReason {
  switch (reason?.unified) {
    case 'stop':
      return 'stop';
    case 'tool-calls':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
