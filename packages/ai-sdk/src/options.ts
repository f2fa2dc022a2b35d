/**
 * An AI SDK language model, as this package uses it: what `anthropic('claude-…')`, `google('gemini-…')` and
 * every other AI SDK provider return (the `@ai-sdk/provider` specification, versions 3 and 4). Named here,
 * not imported from `@ai-sdk/provider`, so that an app's declarations need nothing more than this package.
 */
export type AISDKLanguageModel = {
  readonly specificationVersion: 'v3' | 'v4';
  /** e.g. `anthropic.messages`, `google.generative-ai`. */
  readonly provider: string;
  /** e.g. `claude-sonnet-4-5`. */
  readonly modelId: string;
  doStream(options: { prompt: unknown[]; abortSignal?: AbortSignal }): PromiseLike<{
    stream: ReadableStream<unknown>;
  }>;
};

/** Provider-specific options, by provider name: `{ anthropic: { thinking: { type: 'enabled', budgetTokens: 4000 } } }`. */
export type AISDKProviderOptionsByProvider = Record<string, Record<string, unknown>>;

/** Price per million tokens, in your currency; `cachedInput` defaults to `input`. */
export type ModelPrice = { input: number; cachedInput?: number; output: number };

/** A model with the settings of its calls. */
export type AISDKModelSettings = {
  model: AISDKLanguageModel;
  maxOutputTokens?: number;
  temperature?: number;
  /** The AI SDK's provider-neutral reasoning effort (specification v4; v3 models ignore it). */
  reasoning?: 'provider-default' | 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  /** Sent with every call of this model, e.g. Anthropic's `thinking` or Google's `thinkingConfig`. */
  providerOptions?: AISDKProviderOptionsByProvider;
  /** Extra headers on every call of this model. */
  headers?: Record<string, string>;
  /** To put a cost on each call. */
  price?: ModelPrice;
};

export type AISDKProviderOptions = {
  /**
   * The model of each model class: a prompt's class (`normal` or `high`) picks it. `high` defaults to
   * `normal`.
   */
  models: {
    normal: AISDKLanguageModel | AISDKModelSettings;
    high?: AISDKLanguageModel | AISDKModelSettings;
  };
  /** Give up on a call that sends nothing (no part, not even a ping) for this long (default 120 s). */
  idleTimeoutMs?: number;
  /** Retries of transient failures (default 3), first backoff (500 ms) and longest wait (20 s). */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
};
