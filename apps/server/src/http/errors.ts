import { TesseraError } from '@tessera/core';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { clientDataProblem } from './store-errors.ts';

/** Every error response: a stable code and a message for people. */
export type ErrorBody = { error: { code: string; message: string } };

/**
 * The status of each error code that core, the stores and the built-in plugins throw on purpose. A code a
 * client's request can cause is a 4xx; a dependency failing is a 5xx of its own. Test: every code thrown in
 * their sources is here or in SERVER_FAULTS (errors.test.ts lists them).
 */
export const STATUS: Readonly<Record<string, ContentfulStatusCode>> = Object.freeze({
  not_found: 404,
  conflict: 409,
  conversation_busy: 409,
  conversation_full: 409,
  too_many_messages: 409,
  too_many_branches: 409,
  too_many_conversations: 409,
  too_many_triggers: 409,
  too_many_blueprints: 409,
  version_conflict: 409,
  invalid_input: 400,
  invalid_request: 400,
  invalid_approval_input: 400,
  invalid_file_name: 400,
  invalid_media_type: 400,
  file_unreadable: 400,
  widget_data_invalid: 400,
  output_invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  payload_too_large: 413,
  input_too_large: 413,
  file_too_large: 413,
  // The user's own files fill their quota (not the server's disk): a 4xx they fix by deleting files, not a
  // 507, a server fault that clients and proxies may retry.
  storage_quota_exceeded: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  too_many_streams: 429,
  not_supported: 501,
  mcp_tool_error: 502,
  mcp_server_unavailable: 503,
});

/**
 * Codes that mean the server itself is wrong (its configuration, its data, a plugin's bug, the model
 * provider): a 500 whose cause goes to the log, never to the client.
 */
export const SERVER_FAULTS: ReadonlySet<string> = new Set([
  'definition_error',
  'plugin_state_invalid',
  'plugin_error',
  'hook_failed',
  'model_error',
  'event_stream_overflow',
  'schema_too_new',
  'files_not_configured',
]);

const HTTP_EXCEPTION_CODES: Record<number, string> = {
  401: 'unauthorized',
  403: 'forbidden',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

export class HttpError extends TesseraError {
  readonly status: ContentfulStatusCode;
  constructor(status: ContentfulStatusCode, code: string, message: string) {
    super(code, message);
    this.status = status;
  }
}

/**
 * The answer to a request that threw, and what the log needs: every unexpected error (a 5xx) goes to the log
 * with its causes, and so does a database refusing a request's data (a 400, but a check the API missed).
 */
export function reportError(c: Context, error: unknown, log: Logger | undefined): Response {
  const response = errorResponse(c, error);
  const request = { method: c.req.method, path: c.req.path };
  if (response.status >= 500) log?.error({ err: error, ...request }, 'request failed');
  else if (clientDataProblem(error))
    log?.warn({ err: error, ...request }, 'the database refused the request');
  return response;
}

function errorResponse(c: Context, error: unknown): Response {
  if (HttpError.is(error))
    return c.json<ErrorBody>({ error: { code: error.code, message: error.message } }, error.status);
  const refused = clientDataProblem(error);
  if (refused) {
    const message = `The request was refused by the database: ${refused.problem}.`;
    return c.json<ErrorBody>({ error: { code: 'invalid_request', message } }, 400);
  }
  // A Tessera error with no status of its own is the server's failure: a 500 like any other, its message in the log.
  const status = TesseraError.is(error) && Object.hasOwn(STATUS, error.code) ? STATUS[error.code] : undefined;
  if (TesseraError.is(error) && status)
    return c.json<ErrorBody>({ error: { code: error.code, message: error.message } }, status);
  if (error instanceof HTTPException) {
    const code = HTTP_EXCEPTION_CODES[error.status] ?? 'invalid_request';
    // Hono's 415: the routes without a gate of their own (see sendBodyGate) take JSON only.
    if (error.status === 415) {
      const message = 'Send the body as JSON, with Content-Type: application/json.';
      return c.json<ErrorBody>({ error: { code, message } }, 415);
    }
    return c.json<ErrorBody>(
      { error: { code, message: error.message || 'Bad request.' } },
      error.status as ContentfulStatusCode,
    );
  }
  return c.json<ErrorBody>(
    { error: { code: 'internal_error', message: 'Something went wrong on the server.' } },
    500,
  );
}
