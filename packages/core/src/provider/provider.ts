import type { ModelClass } from '../model/prompt.ts';
import type { JsonSchema } from '../tools/create-tool.ts';
import type { ModelMessage } from './messages.ts';

export type ModelToolDefinition = {
  /** The tool id as Tessera knows it (e.g. `email.send`); providers map it to what their API accepts. */
  name: string;
  description: string;
  parameters: JsonSchema;
};

export type ModelRequest = {
  /** The concrete model name configured for `modelClass`. */
  model: string;
  modelClass: ModelClass;
  /** The system/developer instructions, assembled from the plugins' context items. */
  instructions: string;
  messages: readonly ModelMessage[];
  tools: readonly ModelToolDefinition[];
};

export type ModelUsage = {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
  /** Cost of this call, if the provider knows its prices. */
  cost?: number;
};

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/**
 * What a provider streams back for one model call, in the order the model produced it. `refusal-delta` is
 * text of a refusal; `reasoning-delta` is raw reasoning text as it streams; `reasoning` is a complete
 * reasoning item, and completes the reasoning text streamed just before it (its own `text`, if any, is the
 * whole text and wins over the deltas).
 */
export type ModelStreamEvent =
  | { type: 'text-delta'; delta: string }
  | { type: 'refusal-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  | { type: 'tool-call'; callId: string; name: string; arguments: string }
  | { type: 'reasoning'; summary?: string; text?: string; providerData?: unknown }
  | { type: 'usage'; usage: ModelUsage }
  | { type: 'finish'; reason: FinishReason };

/**
 * A model behind any API. Implementations stream, honour `signal` at every await, retry what is transient
 * themselves, and throw `ModelError` for what they could not recover from.
 */
export interface ModelProvider {
  readonly id: string;
  /** Shown to users, e.g. "gpt-5 via OpenAI" or "demo model (offline)". */
  readonly label?: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
  /**
   * Optional: the same events as `stream`, in the same order, grouped in batches of what the provider has
   * at hand at once (a whole answer, or the events one chunk of its API's stream makes). The loop reads
   * this instead of `stream` when it is there: one await per batch rather than one per event. `stream`
   * stays, for everything else that calls the model (plugins' own calls).
   */
  streamBatches?(request: ModelRequest, signal: AbortSignal): AsyncIterable<readonly ModelStreamEvent[]>;
  /**
   * Estimated tokens of some messages as `model` (the concrete model name, when known) counts them: what the
   * context holds after the provider's last reported count, and the history budget. Defaults to ~4 chars a
   * token.
   */
  estimateTokens?(messages: readonly ModelMessage[], model?: string): number;
}

/** The default estimate: about four characters per token, counted over everything the model reads. */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    switch (message.type) {
      case 'message':
        chars += message.content.length + 8;
        break;
      case 'function_call':
        chars += message.name.length + message.arguments.length + 16;
        break;
      case 'function_call_output':
        chars += message.output.length + 8;
        break;
      case 'reasoning':
        chars += (message.summary?.length ?? 0) + (message.text?.length ?? 0) + 8;
        break;
    }
  }
  return Math.ceil(chars / 4);
}

/** The provider's estimate for `model`, when it has one (else the loop counts about four characters a token). */
export function estimatorFor(
  provider: Pick<ModelProvider, 'estimateTokens'>,
  model: string,
): ((messages: readonly ModelMessage[]) => number) | undefined {
  return provider.estimateTokens && ((messages) => provider.estimateTokens!(messages, model));
}
