import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { HttpError } from '../errors.ts';

/** OpenAI's error body: what its SDKs read into `APIError` (`message`, `type`, `param`, `code`). */
export const OpenAIErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .meta({ id: 'OpenAIError', description: "OpenAI's error shape: what its SDKs raise as typed errors." });
export type OpenAIErrorBody = z.infer<typeof OpenAIErrorSchema>;

/** OpenAI's `type` for each status; the SDKs pick their error class by the status alone. */
const TYPES: Partial<Record<number, string>> = {
  401: 'authentication_error',
  403: 'permission_error',
  429: 'rate_limit_error',
};
const typeOf = (status: number) =>
  TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');

/** The request field an error code is about, as OpenAI names it in `param`. */
const PARAMS: Readonly<Record<string, string>> = { model_not_found: 'model' };

/**
 * Read by the OpenAI SDKs before they retry a 5xx or a 409: a failed prompt (or anything else that failed here)
 * is not sent again by the client on its own, since the retry would run the prompt again; nor is a message to
 * a busy conversation, which a retry could send once the prompt ended (an "approve" meant for a call already
 * decided would then run as a prompt of its own).
 */
const NO_RETRY = 'x-should-retry';

export const openAIError = (status: number, code: string, message: string): OpenAIErrorBody => ({
  error: { message, type: typeOf(status), param: Object.hasOwn(PARAMS, code) ? PARAMS[code]! : null, code },
});

/** A model id that is not one of the app's model classes: OpenAI's 404 `model_not_found`. */
export const modelNotFound = (model: string) =>
  new HttpError(
    404,
    'model_not_found',
    `The model \`${model.slice(0, 100)}\` does not exist: this server's models are its model classes (GET /v1/models).`,
  );

/**
 * Rewrites the server's error bodies (`{ error: { code, message } }`, whichever middleware or route made
 * them: authentication, rate limits, body limits, validation, not found) into OpenAI's shape, with the same
 * status, so that the OpenAI SDKs raise their typed errors (`AuthenticationError`, `NotFoundError`, ...).
 */
export const openAIErrors: MiddlewareHandler = async (c, next) => {
  await next();
  const { res } = c;
  if (res.status < 400 || !res.headers.get('content-type')?.includes('json')) return;
  const body = (await res
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { code?: unknown; message?: unknown; type?: unknown } } | undefined;
  const error = body?.error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string' || 'type' in error)
    return;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  if (res.status >= 500 || res.status === 409) headers.set(NO_RETRY, 'false');
  c.res = undefined; // else Hono copies the old response's headers onto the new one
  c.res = new Response(JSON.stringify(openAIError(res.status, error.code, error.message)), {
    status: res.status as ContentfulStatusCode,
    headers,
  });
};
