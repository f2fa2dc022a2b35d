import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { AuthVariables } from '../auth.ts';
import { ErrorSchema } from '../schemas.ts';

export type Env = { Variables: AuthVariables };
export type Api = OpenAPIHono<Env>;

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const errors = {
  400: json(ErrorSchema, 'Invalid request'),
  401: json(ErrorSchema, 'Missing or invalid token'),
  404: json(ErrorSchema, 'Not found (or not yours)'),
  409: json(ErrorSchema, 'Conflicts with the current state'),
  413: json(ErrorSchema, 'Too large'),
};

export const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
