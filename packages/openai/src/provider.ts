import {
  ModelError,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelUsage,
} from '@tessera/core';
import { requestFetch, ToolNames, withRetries } from '@tessera/provider-utils';
import type OpenAI from 'openai';
import { chatRequest, streamed as streamedChat } from './chat/request.ts';
import { completionChunks, fromChatStream } from './chat/stream.ts';
import { retryAfterMs, toModelError } from './errors.ts';
import { failedGeneration, refusedGenerationEvents } from './failed-generation.ts';
import type { ModelPrice, ModelSettings, OpenAIProviderOptions } from './options.ts';
import { responsesRequest, streamed as streamedResponses } from './responses/request.ts';
import { fromResponsesStream, responseEvents } from './responses/stream.ts';
import { loadSdk } from './sdk.ts';
import { estimateOpenAITokens } from './token-estimate.ts';
import { ResponseWatch, watchedFetch, watching } from './watched-fetch.ts';

const cost = (usage: ModelUsage, price: ModelPrice | undefined): number | undefined => {
  if (!price) return undefined;
  const cached = usage.cachedInputTokens ?? 0;
  return (
    ((usage.inputTokens - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000
  );
};

/**
 * The model provider for OpenAI (Responses API by default) and OpenAI-compatible servers (Chat
 * Completions). The only package of Tessera that imports the `openai` SDK.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions = {}): ModelProvider {
  const api = options.api ?? 'responses';
  const stream = options.stream ?? true;
  const timeoutMs = options.timeoutMs ?? 600_000;
  const clientOptions = sdkClientOptions(options, timeoutMs);
  let client: OpenAI | undefined;
  const clientOf = async () => {
    client ??= new (await loadSdk()).OpenAI(clientOptions);
    return client;
  };
  const retry = {
    maxRetries: options.maxRetries ?? 3,
    baseDelayMs: options.retryBaseDelayMs ?? 500,
    maxDelayMs: options.retryMaxDelayMs ?? 20_000,
    toModelError,
    retryAfterMs,
  };
  const idleMs = options.idleTimeoutMs ?? 60_000;
  // A call that does not stream sends nothing until it is done: the watchdog waits for the whole call.
  const watchMs = stream ? idleMs : timeoutMs;

  async function* attempt(
    request: ModelRequest,
    names: ToolNames,
    signal: AbortSignal,
  ): AsyncGenerator<ModelStreamEvent> {
    const settings = options.models?.[request.model] ?? {};
    const controller = new AbortController();
    const forward = () => controller.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    // Watchdogs for stalled calls. No byte for `watchMs` (a keep-alive comment is a byte) aborts the
    // request; so does, for a stream, no output for `timeoutMs` (a server that only keeps the line alive).
    // A call that does not stream is watched as a whole, so its bytes do not count.
    let stalled: string | undefined;
    const watchdog = (ms: number, message: string) =>
      setTimeout(() => {
        stalled = message;
        controller.abort();
      }, ms);
    const idle = watchdog(
      watchMs,
      stream
        ? `The model sent nothing for ${idleMs} ms.`
        : `The model did not answer within ${timeoutMs} ms.`,
    );
    const quiet = stream
      ? watchdog(timeoutMs, `The model sent only keep-alive messages, no output, for ${timeoutMs} ms.`)
      : undefined;
    const watch = new ResponseWatch(stream ? () => idle.refresh() : () => {});
    try {
      const events = await watching(watch, async () =>
        modelEvents(await clientOf(), { api, stream }, request, names, settings, controller.signal),
      );
      for await (const event of events) {
        quiet?.refresh();
        if (event.type === 'usage') {
          const priced = cost(event.usage, options.prices?.[request.model]);
          yield priced === undefined ? event : { type: 'usage', usage: { ...event.usage, cost: priced } };
        } else yield event;
      }
    } catch (error) {
      if (stalled && !signal.aborted) {
        throw new ModelError(stalled, { kind: 'timeout', retryable: true, cause: error });
      }
      // The SDK parsed the half event it was left with: the connection was cut, the server is not broken.
      if (error instanceof SyntaxError && watch.cutMidEvent) {
        throw new ModelError('The stream was cut off in the middle of an event.', {
          kind: 'connection',
          retryable: true,
          cause: error,
        });
      }
      throw error;
    } finally {
      clearTimeout(idle);
      clearTimeout(quiet);
      signal.removeEventListener('abort', forward);
    }
  }

  return {
    id: `openai-${api}`,
    label:
      (options.baseURL ?? process.env.OPENAI_BASE_URL) ? `OpenAI-compatible (${api})` : `OpenAI (${api})`,
    stream(request, signal) {
      const names = new ToolNames(request.tools.map((tool) => tool.name));
      return withRetries(() => attempt(request, names, signal), retry, signal);
    },
    // Without it, core counts about four characters a token (scaled by what the API reports).
    ...(options.exactTokenCounts ? { estimateTokens: estimateOpenAITokens } : {}),
  };
}

/** The SDK client's options: no retries or console lines of its own, and every response watched. */
function sdkClientOptions(options: OpenAIProviderOptions, timeoutMs: number) {
  return {
    apiKey: options.apiKey ?? process.env.OPENAI_API_KEY ?? 'not-needed-by-this-server',
    baseURL: options.baseURL ?? process.env.OPENAI_BASE_URL ?? undefined,
    timeout: timeoutMs,
    maxRetries: 0, // one retry policy: ours, which never repeats a call that already streamed output
    ...(options.headers && { defaultHeaders: options.headers }),
    fetch: watchedFetch(options.fetch ?? requestFetch),
    // The SDK prints to the console unless told otherwise: the app decides where its lines go.
    ...(options.logger
      ? { logger: options.logger, logLevel: options.logLevel ?? 'warn' }
      : { logLevel: 'off' as const }),
  };
}

/**
 * One call's core events: streamed, or the whole answer replayed through the same mapping. A tool call the
 * server refused before answering (Groq's `tool_use_failed` as an HTTP 400) goes back to the model instead
 * (see failed-generation.ts).
 */
async function modelEvents(
  client: OpenAI,
  how: { api: 'responses' | 'chat'; stream: boolean },
  request: ModelRequest,
  names: ToolNames,
  settings: ModelSettings,
  signal: AbortSignal,
): Promise<AsyncIterable<ModelStreamEvent> | Iterable<ModelStreamEvent>> {
  try {
    return await answerEvents(client, how, request, names, settings, signal);
  } catch (error) {
    const failed = failedGeneration(error);
    if (!failed) throw error;
    return refusedGenerationEvents(failed, names);
  }
}

async function answerEvents(
  client: OpenAI,
  { api, stream }: { api: 'responses' | 'chat'; stream: boolean },
  request: ModelRequest,
  names: ToolNames,
  settings: ModelSettings,
  signal: AbortSignal,
): Promise<AsyncIterable<ModelStreamEvent>> {
  if (api === 'chat') {
    const body = chatRequest(request, names, settings);
    return fromChatStream(
      stream
        ? await client.chat.completions.create(streamedChat(body), { signal })
        : completionChunks(await client.chat.completions.create(body, { signal })),
      names,
    );
  }
  const body = responsesRequest(request, names, settings);
  return fromResponsesStream(
    stream
      ? await client.responses.create(streamedResponses(body), { signal })
      : responseEvents(await client.responses.create(body, { signal })),
    names,
  );
}
