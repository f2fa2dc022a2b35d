import { ModelError, type ModelStreamEvent } from '@tessera/core';
import { retryAfterMs, toModelError } from './errors.ts';

export type RetryOptions = { maxRetries: number; baseDelayMs: number; maxDelayMs: number };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Runs a call, retrying transient failures with exponential backoff and full jitter (or the server's
 * retry-after). The AI SDK leaves retries to its `generateText`, which this package does not use, so they
 * are done here. Only a call that has yielded nothing is retried, so streamed output is never duplicated:
 * one that fails after it throws, saying so. Aborting stops at once with the signal's reason.
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
      if (yielded && error.retryable) {
        throw new ModelError(
          `${error.message} (Not retried: it failed after part of the answer had streamed.)`,
          {
            kind: error.kind,
            retryable: error.retryable,
            ...(error.status !== undefined && { status: error.status }),
            cause: error,
          },
        );
      }
      if (yielded || !error.retryable || retry >= options.maxRetries) throw error;
      const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
      await sleep(Math.min(retryAfterMs(error) ?? Math.random() * backoff, options.maxDelayMs), signal);
    }
  }
}
