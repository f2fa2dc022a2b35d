import { ModelError, type ModelErrorKind } from '@tessera/core';
import { loadedSdk } from './sdk.ts';

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const RATE_LIMIT_CODES = new Set(['rate_limit_exceeded', 'rate_limit_error', 'too_many_requests']);
const AUTHENTICATION_CODES = new Set([
  'invalid_api_key',
  'authentication_error',
  'permission_error',
  'permission_denied',
  'unauthorized',
]);
const TIMEOUT_CODES = new Set(['timeout', 'request_timeout']);
const BAD_REQUEST_CODES = new Set([
  'invalid_request_error',
  'bad_request',
  'not_found_error',
  'model_not_found',
]);

type Classified = { kind: ModelErrorKind; retryable: boolean; status?: number };

/** An HTTP status given as an error code, as some servers do inside a stream (`"code": 400`). */
const statusOf = (code: unknown): number | undefined => {
  const status = typeof code === 'number' ? code : typeof code === 'string' ? Number(code) : Number.NaN;
  return Number.isInteger(status) && status >= 100 && status <= 599 ? status : undefined;
};

function byStatus(status: number): Classified {
  if (status === 401 || status === 403) return { kind: 'authentication', retryable: false, status };
  if (status === 408) return { kind: 'timeout', retryable: true, status };
  if (status === 429) return { kind: 'rate_limit', retryable: true, status };
  // A conflict (409) is another request's doing, and may be gone when we try again.
  if (status === 409) return { kind: 'bad_request', retryable: true, status };
  if (status >= 400 && status < 500) return { kind: 'bad_request', retryable: false, status };
  return { kind: 'server', retryable: true, status };
}

/**
 * What an error says about itself: its HTTP status, or, for an error that came inside a stream (no
 * status), its code or type (`"code": 400` counts as a status). A client error (4xx) is never retried,
 * except 408, 409 and 429; a used-up quota is a 429 that waiting does not fix. An error inside a stream
 * that says nothing we know is taken as the server's fault, which a new request may not meet.
 */
export function classify(status: number | undefined, codes: readonly unknown[]): Classified {
  const names = codes.filter((code): code is string => typeof code === 'string' && code !== '');
  const effective = status ?? codes.map(statusOf).find((code) => code !== undefined);
  if (names.some((name) => CONTEXT_CODES.has(name))) {
    return { kind: 'context_length', retryable: false, ...(effective && { status: effective }) };
  }
  if (names.includes('insufficient_quota')) {
    return { kind: 'rate_limit', retryable: false, ...(effective && { status: effective }) };
  }
  if (effective !== undefined) return byStatus(effective);
  if (names.some((name) => RATE_LIMIT_CODES.has(name))) return { kind: 'rate_limit', retryable: true };
  if (names.some((name) => AUTHENTICATION_CODES.has(name)))
    return { kind: 'authentication', retryable: false };
  if (names.some((name) => TIMEOUT_CODES.has(name))) return { kind: 'timeout', retryable: true };
  if (names.some((name) => BAD_REQUEST_CODES.has(name) || name.startsWith('invalid_'))) {
    return { kind: 'bad_request', retryable: false };
  }
  return { kind: 'server', retryable: true };
}

/** A typed, retry-aware `ModelError` for whatever the SDK threw. */
export function toModelError(error: unknown): ModelError {
  if (ModelError.is(error)) return error;
  const fromSdk = sdkError(error);
  if (fromSdk) return fromSdk;
  // The SDK's JSON parse of an event or a body: a server that sent something broken.
  if (error instanceof SyntaxError) {
    return new ModelError(`The server sent a response that is not valid JSON: ${error.message}`, {
      kind: 'server',
      retryable: true,
      cause: error,
    });
  }
  return new ModelError(error instanceof Error ? error.message : String(error), {
    kind: 'other',
    cause: error,
  });
}

/** The `ModelError` for one of the SDK's errors (none can be thrown before a call loaded the SDK). */
function sdkError(error: unknown): ModelError | undefined {
  const sdk = loadedSdk();
  if (!sdk) return undefined;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
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
    // At run time `code` may be a number: some servers put the HTTP status there.
    const code = (error.code as unknown) ?? error.type ?? undefined;
    const message = `${error.message}${error.status || code === undefined ? '' : ` (${code})`}`;
    return new ModelError(message, { ...classify(error.status, [error.code, error.type]), cause: error });
  }
  return undefined;
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
