import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import { HttpError } from './errors.ts';

export type AuthOptions = { tokens: Record<string, string>; loopbackWithoutAuth: boolean; localUser: string };
export type AuthVariables = { userId: string };

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Bearer tokens map to user ids. `?token=` is accepted too, for the EventSource API and download links,
 * which cannot set headers.
 */
export function authenticate(options: AuthOptions): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : c.req.query('token');
    const userId = token ? options.tokens[token] : undefined;
    if (userId) c.set('userId', userId);
    else if (!token && options.loopbackWithoutAuth && LOOPBACK.test(getConnInfo(c).remote.address ?? '')) {
      c.set('userId', options.localUser);
    } else {
      throw new HttpError(401, 'unauthorized', token ? 'This token is not valid.' : 'Send a bearer token.');
    }
    await next();
  };
}
