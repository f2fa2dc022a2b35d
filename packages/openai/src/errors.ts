import { ModelError, type ModelErrorKind } from '@tessera/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);

/** A typed, retry-aware `ModelError` for whatever the SDK threw. */
export function toModelError(error: unknown): ModelError {
  if (ModelError.is(error)) return error;
  if (error instanceof APIUserAbortError)
    return new ModelError('The request was aborted.', { kind: 'other', cause: error });
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError('The request timed out.', { kind: 'timeout', retryable: true, cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(`Could not reach the model server: ${error.message}`, {
      kind: 'connection',
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const status = error.status;
    const code = error.code ?? error.type ?? undefined;
    const message = `${error.message}${status ? '' : code ? ` (${code})` : ''}`;
    const kind: ModelErrorKind =
      code && CONTEXT_CODES.has(code)
        ? 'context_length'
        : status === 401 || status === 403
          ? 'authentication'
          : status === 429
            ? 'rate_limit'
            : status !== undefined && status >= 500
              ? 'server'
              : status === 408
                ? 'timeout'
                : status === undefined
                  ? 'server'
                  : 'bad_request';
    // A quota that is used up is a 429 that waiting does not fix.
    const retryable =
      code !== 'insufficient_quota' &&
      (kind === 'rate_limit' || kind === 'server' || kind === 'timeout' || status === 409);
    return new ModelError(message, { kind, retryable, status, cause: error });
  }
  return new ModelError(error instanceof Error ? error.message : String(error), {
    kind: 'other',
    cause: error,
  });
}

/** How long the server asked us to wait, from `retry-after-ms` or `retry-after` (seconds or a date). */
export function retryAfterMs(error: ModelError): number | undefined {
  const headers = (error.cause as { headers?: Headers } | undefined)?.headers;
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headers.get('retry-after-ms') !== null) return ms;
  const after = headers.get('retry-after');
  if (after === null) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
