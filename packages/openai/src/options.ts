export type ModelSettings = {
  temperature?: number;
  /** For reasoning models: `minimal` | `low` | `medium` | `high`. Also asks for reasoning summaries. */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  maxOutputTokens?: number;
};

/** Price per million tokens, in your currency; `cachedInput` defaults to `input`. */
export type ModelPrice = { input: number; cachedInput?: number; output: number };

/** Where the `openai` SDK's own log lines go (`console` fits). */
export type OpenAILogger = Record<
  'error' | 'warn' | 'info' | 'debug',
  (message: string, ...rest: unknown[]) => void
>;

export type OpenAIProviderOptions = {
  /** Default: `OPENAI_API_KEY`. */
  apiKey?: string;
  /** Default: `OPENAI_BASE_URL`, else OpenAI. An OpenAI-compatible server: e.g. `http://localhost:11434/v1`. */
  baseURL?: string;
  /** `responses` (default) or `chat` (Chat Completions, for OpenAI-compatible servers). */
  api?: 'responses' | 'chat';
  /**
   * `true` (default): stream every call. `false`: ask for the whole answer at once, for servers that handle
   * tool calls only without streaming (older Ollama, some vLLM tool parsers). The events are the same, with
   * each message's text in one piece; the idle timeout then does not apply, `timeoutMs` bounds each call.
   */
  stream?: boolean;
  /** Settings per model name (the names the platform maps `normal` / `high` to). */
  models?: Record<string, ModelSettings>;
  /** Prices per model name, to put a cost on each prompt. */
  prices?: Record<string, ModelPrice>;
  /**
   * Default 10 minutes. A call that does not stream must answer within it; a stream must send some output
   * at least this often (keep-alive comments keep it from the idle timeout, not from this one).
   */
  timeoutMs?: number;
  /** Give up on a stream that sends nothing, not even a keep-alive comment, for this long (default 60 s). */
  idleTimeoutMs?: number;
  /** Retries of transient failures (default 3), first backoff (500 ms) and longest wait (20 s). */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Extra headers on every request (e.g. for a gateway). */
  headers?: Record<string, string>;
  /** For tests and proxies: the fetch implementation the SDK uses. */
  fetch?: typeof fetch;
  /**
   * Where the SDK's own log lines go. Default: nowhere (the SDK would print to the console, e.g. on a
   * malformed event); every failure reaches the app as a `ModelError` anyway.
   */
  logger?: OpenAILogger;
  /** The least severe SDK log line passed to `logger` (default `warn`). */
  logLevel?: 'off' | 'error' | 'warn' | 'info' | 'debug';
  /**
   * Count OpenAI's models' tokens with their own encoding (o200k, cl100k, through `gpt-tokenizer`) rather
   * than about four characters a token. Default `false`: every count that decides something (the history
   * budget, compaction, the context meter) is anchored on or scaled by the tokens the API reported for the
   * conversation's last call, so the exact count changes little, and the encoding's tables hold ~30 MB of a
   * process's memory once loaded. Worth it for budgets tight enough that a first call must be counted exactly.
   */
  exactTokenCounts?: boolean;
};
