import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { tags } from '../api-reference.ts';
import { HttpError } from '../errors.ts';
import { ErrorSchema } from '../schemas.ts';
import { CSRF_HEADER, SESSION_COOKIE, type Sessions } from '../session.ts';
import { type Api, body, errors, json } from './shared.ts';

const SignIn = z.object({ token: z.string().min(1).max(500) }).strict();
const SignedIn = z.object({ userId: z.string() });

/**
 * Sign-in for browsers: a token is exchanged once for an HttpOnly, SameSite=Strict session cookie, which then
 * authorizes every request, event streams and downloads included (no token in any URL). Programs keep
 * sending bearer tokens.
 */
export function sessionRoutes(app: Api, sessions: Sessions): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/session',
      operationId: 'signIn',
      tags: tags('session'),
      summary: 'Sign in with a token',
      description: `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Strict, Secure on https). Requests it signs in that change anything must send the \`X-Requested-With\` header.`,
      security: [],
      request: body(SignIn, { token: 'the-token-of-your-local-token-file' }),
      responses: {
        200: json(SignedIn, 'Signed in; the cookie is set', { userId: 'ada' }),
        400: errors[400],
        401: errors[401],
        413: errors[413],
        415: errors[415],
      },
    }),
    async (c) => {
      const userId = await sessions.start(c, c.req.valid('json').token);
      if (!userId) throw new HttpError(401, 'unauthorized', 'This token is not valid.');
      return c.json({ userId }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/session',
      operationId: 'signOut',
      tags: tags('session'),
      summary: 'Sign out',
      description: `Needs the \`${CSRF_HEADER}\` header, as every cookie request that changes something: another site cannot sign you out.`,
      security: [],
      responses: {
        204: { description: 'Signed out' },
        403: json(ErrorSchema, 'Sent without the X-Requested-With header'),
      },
    }),
    (c) => {
      if (!c.req.header(CSRF_HEADER))
        throw new HttpError(403, 'forbidden', `Send the ${CSRF_HEADER} header to sign out.`);
      sessions.end(c);
      return c.body(null, 204);
    },
  );
}
