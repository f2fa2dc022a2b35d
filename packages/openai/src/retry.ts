import { ModelError, type ModelStreamEvent } from '@tessera/core';
import { retryAfterMs, toModelError } from './errors.ts';

export type RetryOptions = {
  /** Attempts after the first (default 3). */
  maxRetries: number;
  /** The first backoff; each next one doubles, with jitter, up to `maxDelayMs` (defaults 500 ms, 20 s). */
  baseDelayMs: number;
  maxDelayMs: number;
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
 * short, timeouts) with exponential backoff and full jitter, honouring the server's retry-after. Only a
 * call that has not yet yielded anything is retried, so streamed output is never duplicated: one that
 * fails after it throws, saying so, and the caller keeps what it was given. Aborting stops at once.
 */
export async function* withRetries(
  attempt: () => AsyncIterable<ModelStreamEvent>,
  options: RetryOptions,
  signal: AbortSignal,
): AsyncGenerator<ModelStreamEvent> {
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
      const error = toModelError(thrown);
      if (yielded && error.retryable) throw afterOutput(error);
      if (yielded || !error.retryable || retry >= options.maxRetries) throw error;
      const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
      const delay = retryAfterMs(error) ?? Math.random() * backoff;
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
