import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { HttpError } from './errors.ts';
import { CSRF_HEADER, type Sessions } from './session.ts';
import type { TokenTable } from './tokens.ts';

export type AuthOptions = {
  tokens: TokenTable;
  loopbackWithoutAuth: boolean;
  localUser: string;
  sessions: Sessions;
};
export type AuthVariables = { userId: string };

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Whether a browser sent this request from another site: `Sec-Fetch-Site` (every current browser), else an
 * `Origin` of another host. Programs (curl, the CLI) send neither.
 */
function fromAnotherSite(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = c.req.header('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host !== c.req.header('host');
  } catch {
    return true; // `null` (a sandboxed frame, a file) or garbage
  }
}

/**
 * Whether the request names this machine as its host: `localhost` (or a `*.localhost` name, which browsers
 * resolve to the loopback themselves) or an IP address. Any other name may be an attacker's, made to resolve
 * to 127.0.0.1 (DNS rebinding): its page is then of the server's origin, reads every answer and sends
 * `Sec-Fetch-Site: same-origin`. No `Host` at all (HTTP/1.0) is a program: browsers always send one.
 */
function addressedToThisMachine(c: Context): boolean {
  const host = c.req.header('host');
  if (host === undefined) return true;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  return isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/** A proxy on this machine relays others' requests from the loopback: it says so with one of these. */
const forwarded = (c: Context) =>
  c.req.header('forwarded') !== undefined || c.req.header('x-forwarded-for') !== undefined;

/** Signing in and out need no credentials (signing in is how a browser gets them). */
const isSessionRoute = (path: string, method: string) =>
  path === '/api/session' && (method === 'POST' || method === 'DELETE');

/**
 * Who is calling: a bearer token (programs), else the session cookie a browser got by signing in
 * (POST /api/session), else, when allowed, anyone on the loopback interface as the local user (a request
 * addressed to `localhost` or an IP address, not relayed by a proxy). Tokens in
 * the URL are refused: they end up in logs, history and Referer headers. A cookie-authenticated request
 * that changes anything must carry `X-Requested-With` (see CSRF_HEADER); a loopback one must not come from
 * another site.
 */
export function authenticate(options: AuthOptions): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    if (isSessionRoute(c.req.path, c.req.method)) return next();
    const header = c.req.header('authorization');
    if (header !== undefined) {
      // The scheme is case-insensitive (RFC 9110, 11.1): `bearer <token>` is a client's own token too, not a
      // failed attempt that counts towards blocking its address.
      const token = header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
      const userId = options.tokens.userOf(token);
      if (userId === undefined) throw new HttpError(401, 'unauthorized', 'This token is not valid.');
      c.set('userId', userId);
      return next();
    }
    const sessionUser = await options.sessions.user(c);
    if (sessionUser) {
      if (!SAFE_METHODS.has(c.req.method) && !c.req.header(CSRF_HEADER)) {
        throw new HttpError(
          403,
          'forbidden',
          `A request signed in by the session cookie must send the ${CSRF_HEADER} header to change anything.`,
        );
      }
      c.set('userId', sessionUser);
      return next();
    }
    if (c.req.query('token') !== undefined) {
      throw new HttpError(
        401,
        'unauthorized',
        'A token in the URL is not accepted: send it as Authorization: Bearer <token>, or sign in (POST /api/session).',
      );
    }
    if (
      options.loopbackWithoutAuth &&
      LOOPBACK.test(getConnInfo(c).remote.address ?? '') &&
      addressedToThisMachine(c) &&
      !forwarded(c)
    ) {
      // Any web page the local user opens can send requests to 127.0.0.1: none may act as them.
      if (!SAFE_METHODS.has(c.req.method) && fromAnotherSite(c)) {
        throw new HttpError(403, 'forbidden', 'A request from another site cannot act as the local user.');
      }
      c.set('userId', options.localUser);
      return next();
    }
    throw new HttpError(
      401,
      'unauthorized',
      options.sessions.has(c)
        ? 'Your session has ended: sign in again.'
        : 'Sign in, or send a bearer token (Authorization: Bearer <token>).',
    );
  };
}
