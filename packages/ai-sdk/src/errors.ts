import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  LoadSettingError,
  TypeValidationError,
} from '@ai-sdk/provider';
import { ModelError, type ModelErrorKind } from '@tessera/core';

type Classified = { kind: ModelErrorKind; retryable: boolean };

// What providers say when the request is longer than the model's context (Anthropic, Gemini, OpenAI, Bedrock, Mistral).
const CONTEXT_LENGTH =
  /prompt is too long|context[ _-]?(length|window)|too many (input )?tokens|input token count.*exceeds|maximum context|exceeds the (model'?s? )?(max|context)/i;

function byStatus(status: number, retryable: boolean): Classified {
  if (status === 401 || status === 403) return { kind: 'authentication', retryable: false };
  if (status === 408) return { kind: 'timeout', retryable: true };
  if (status === 429) return { kind: 'rate_limit', retryable };
  if (status === 413) return { kind: 'context_length', retryable: false };
  if (status >= 400 && status < 500) return { kind: 'bad_request', retryable };
  return { kind: 'server', retryable: true }; // 5xx, Anthropic's 529 overloaded
}

/**
 * A typed `ModelError` for whatever an AI SDK provider threw or streamed. An `APICallError` says itself
 * whether it may be retried (its provider knows: 408, 409, 429, 5xx, a connection that failed); its status
 * gives the kind, its message or body a context that was too long. A used-up quota is a 429 that waiting
 * does not fix. A response the provider could not read is the server's fault, which a new request may not
 * meet; a missing API key or setting is the app's, and final.
 */
export function toModelError(error: unknown): ModelError {
  if (ModelError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const made = (classified: Classified, text = message, status?: number) =>
    new ModelError(text, { ...classified, ...(status !== undefined && { status }), cause: error });

  if (APICallError.isInstance(error)) {
    const said = `${error.message} ${error.responseBody ?? ''}`;
    const status = error.statusCode;
    if (CONTEXT_LENGTH.test(said)) return made({ kind: 'context_length', retryable: false }, message, status);
    if (/insufficient_quota|billing/i.test(said))
      return made({ kind: 'rate_limit', retryable: false }, message, status);
    if (status === undefined) {
      return made(
        { kind: 'connection', retryable: error.isRetryable },
        `Could not reach the model: ${message}`,
      );
    }
    return made(byStatus(status, error.isRetryable), message, status);
  }
  if (LoadAPIKeyError.isInstance(error) || LoadSettingError.isInstance(error)) {
    return made({ kind: 'authentication', retryable: false });
  }
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error)
  ) {
    return made(
      { kind: 'server', retryable: true },
      `The model sent a response that could not be read: ${message}`,
    );
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return made({ kind: 'timeout', retryable: true });
  }
  return made({ kind: 'other', retryable: false });
}

/**
 * How long the server asked us to wait: `retry-after-ms` or `retry-after` (seconds or a date), else Gemini's
 * `RetryInfo` in the error body (`"retryDelay": "34.4s"`).
 */
export function retryAfterMs(error: ModelError): number | undefined {
  const cause = error.cause;
  if (!APICallError.isInstance(cause)) return undefined;
  return fromHeaders(cause.responseHeaders ?? {}) ?? fromRetryInfo(cause.responseBody);
}

function fromRetryInfo(body: string | undefined): number | undefined {
  const seconds = body?.match(/"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/)?.[1];
  return seconds === undefined ? undefined : Math.round(Number(seconds) * 1000);
}

function fromHeaders(headers: Record<string, string>): number | undefined {
  const header = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? undefined;
  const ms = Number(header('retry-after-ms'));
  if (header('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const after = header('retry-after');
  if (after === undefined) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
