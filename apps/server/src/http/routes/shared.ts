import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AuthVariables } from '../auth.ts';
import { HttpError } from '../errors.ts';
import { ErrorSchema } from '../schemas.ts';

export type Env = { Variables: AuthVariables };
export type Api = OpenAPIHono<Env>;

/** A JSON response; with an `example` of its body for the API reference (successful answers have one). */
export const json = <T extends z.ZodType>(schema: T, description: string, example?: unknown) => ({
  content: { 'application/json': { schema, ...(example !== undefined && { example }) } },
  description,
});

export const errors = {
  400: json(ErrorSchema, 'Invalid request'),
  401: json(ErrorSchema, 'Missing or invalid token'),
  403: json(
    ErrorSchema,
    'Signed in by the session cookie without the X-Requested-With header (or, as the local user, sent from another site)',
  ),
  404: json(ErrorSchema, 'Not found (or not yours)'),
  409: json(ErrorSchema, 'Conflicts with the current state'),
  413: json(ErrorSchema, 'Too large'),
  415: json(ErrorSchema, 'A body of a type this route does not take'),
  429: {
    ...json(ErrorSchema, 'Too many requests (a rate limit): wait `Retry-After` seconds'),
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before trying again',
        schema: { type: 'integer' as const },
      },
    },
  },
};

/** A required JSON request body, with an example for the API reference. */
export const body = <T extends z.ZodType>(schema: T, example: unknown) => ({
  body: { content: { 'application/json': { schema, example } }, required: true },
});

/** The 400 of every request that fails its schema, wherever it is checked: what is wrong, field by field. */
export const invalidRequest = (error: z.ZodError): HttpError =>
  new HttpError(400, 'invalid_request', z.prettifyError(error));

/** `value` checked against `schema`, for what the route's own OpenAPI validators do not see. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}
