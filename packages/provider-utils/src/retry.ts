import { ModelError, type ModelStreamEvent } from '@tessera/core';

export type RetryOptions = {
  /** Attempts after the first (default 3 in both providers). */
  maxRetries: number;
  /** The first backoff; each next one doubles, with jitter, up to `maxDelayMs` (defaults 500 ms, 20 s). */
  baseDelayMs: number;
  maxDelayMs: number;
};

/** How a provider reads its own errors: the retry mechanism is shared, the reading of errors is not. */
export type RetryErrors = {
  /** A typed, retry-aware `ModelError` for whatever the call threw. */
  toModelError: (thrown: unknown) => ModelError;
  /** How long the server asked to wait (retry-after headers, Gemini's RetryInfo, …), if it said. */
  retryAfterMs?: (error: ModelError) => number | undefined;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Runs a streaming call, retrying transient failures (rate limits, 5xx, connection resets, streams cut
 * short, timeouts: whatever `toModelError` calls retryable) with exponential backoff and full jitter,
 * honouring the server's retry-after. Only a call that has not yet yielded anything is retried, so streamed
 * output is never duplicated: one that fails after it throws, saying so, and the caller keeps what it was
 * given. Aborting stops at once with the signal's reason.
 */
export async function* withRetries<T = ModelStreamEvent>(
  attempt: () => AsyncIterable<T>,
  options: RetryOptions & RetryErrors,
  signal: AbortSignal,
): AsyncGenerator<T> {
  for (let retry = 0; ; retry++) {
    let yielded = false;
    try {
      for await (const event of attempt()) {
        yielded = true;
        yield event;
      }
      return;
    } catch (thrown) {
      if (signal.aborted) throw signal.reason;
      const error = options.toModelError(thrown);
      if (yielded && error.retryable) throw afterOutput(error);
      if (yielded || !error.retryable || retry >= options.maxRetries) throw error;
      const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
      const delay = options.retryAfterMs?.(error) ?? Math.random() * backoff;
      await sleep(Math.min(delay, options.maxDelayMs), signal);
    }
  }
}

/** A transient failure that is not retried because output had already streamed. */
const afterOutput = (error: ModelError): ModelError =>
  new ModelError(`${error.message} (Not retried: it failed after part of the answer had streamed.)`, {
    kind: error.kind,
    retryable: error.retryable,
    ...(error.status !== undefined && { status: error.status }),
    cause: error,
  });
