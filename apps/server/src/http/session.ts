import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import { type TokenTable, tokenDigest } from './tokens.ts';

/** The session cookie: HttpOnly (scripts never see it), SameSite=Strict (other sites never send it). */
export const SESSION_COOKIE = 'tessera_session';
/**
 * The header a cookie-authenticated request must carry to change anything (OWASP's custom request header
 * defence against CSRF): another site cannot set it without a CORS preflight, which this server never allows.
 * SameSite=Strict already keeps the cookie off cross-site requests; this covers browsers or same-site
 * subdomains where it would not.
 */
export const CSRF_HEADER = 'x-requested-with';
const SESSION_DAYS = 30;

export type SessionOptions = {
  /** The tokens a browser may sign in with, as for bearer tokens. */
  tokens: TokenTable;
  /** Signs the cookies (HMAC-SHA256); kept across restarts. */
  secret: string;
  now?: () => number;
};

type Payload = { u: string; f: string; e: number };

/**
 * A token's fingerprint (from its SHA-256 digest), kept in the cookie instead of the token, so removing a
 * token ends its sessions.
 */
const fingerprint = (digest: Buffer) => digest.toString('base64url').slice(0, 22);

/**
 * Sessions exchanged for a token once, at sign-in: a signed cookie naming the user, the token's fingerprint
 * and an expiry. Stateless (no session table), valid only while the token it came from is configured.
 */
export function createSessions(options: SessionOptions) {
  const now = options.now ?? Date.now;
  const users = new Map([...options.tokens.digests()].map(([digest, user]) => [fingerprint(digest), user]));
  /** Secure when the page is on https (directly or behind a proxy that says so): never sent over plain http. */
  const secure = (c: Context) =>
    new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
  return {
    /** Sets the session cookie for `token`; false when the token is not valid. */
    async start(c: Context, token: string): Promise<string | undefined> {
      const userId = options.tokens.userOf(token);
      if (userId === undefined) return undefined;
      const expires = now() + SESSION_DAYS * 86_400_000;
      const payload: Payload = { u: userId, f: fingerprint(tokenDigest(token)), e: expires };
      await setSignedCookie(
        c,
        SESSION_COOKIE,
        Buffer.from(JSON.stringify(payload)).toString('base64url'),
        options.secret,
        {
          httpOnly: true,
          sameSite: 'Strict',
          secure: secure(c),
          path: '/',
          maxAge: SESSION_DAYS * 86_400,
        },
      );
      return userId;
    },
    /** The user of the request's session cookie, if it has a valid one. */
    async user(c: Context): Promise<string | undefined> {
      const value = await getSignedCookie(c, options.secret, SESSION_COOKIE);
      if (!value) return undefined;
      let payload: Payload;
      try {
        payload = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Payload;
      } catch {
        return undefined;
      }
      if (typeof payload !== 'object' || payload === null) return undefined;
      if (typeof payload.e !== 'number' || payload.e < now() || typeof payload.f !== 'string')
        return undefined;
      const userId = users.get(payload.f);
      return userId !== undefined && userId === payload.u ? userId : undefined;
    },
    /** Whether the request carries a session cookie at all (valid or not). */
    has: (c: Context) => c.req.header('cookie')?.includes(`${SESSION_COOKIE}=`) ?? false,
    end(c: Context): void {
      deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Strict', secure: secure(c) });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
