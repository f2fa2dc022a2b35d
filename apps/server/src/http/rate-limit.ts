import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Limit, RateLimiters } from '../rate-limiters.ts';
import type { AuthVariables } from './auth.ts';
import type { ErrorBody } from './errors.ts';

type Handler = MiddlewareHandler<{ Variables: AuthVariables }>;

/**
 * The client's address, as the key of its per-address limits: the connection's, or with `trustProxy` hops the
 * one that many proxies back in `X-Forwarded-For` (each proxy appends the address it received, so only the
 * entries the trusted proxies added are believed; anything further left is the client's to write). An IPv6
 * address counts by its /64, which one host usually has whole; an IPv4-mapped one as the IPv4 address.
 * Without a connection (`app.fetch` called in-process) every request shares the address `unknown`.
 */
export function clientAddress(c: Context, trustProxy: number): string {
  const socket = connectionAddress(c);
  if (trustProxy === 0) return addressKey(socket);
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const hops = [...forwarded, socket];
  const chosen = hops[Math.max(0, hops.length - 1 - trustProxy)];
  // A trusted proxy writes addresses; anything else there is not one to key on.
  return addressKey(chosen && isIP(stripMapped(chosen)) ? chosen : socket);
}

function connectionAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // no Node request behind this one
  }
}

const stripMapped = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = stripMapped(address.replace(/%.*$/, ''));
  return isIP(plain) === 6 ? ipv6Prefix(plain) : plain;
}

/** The /64 of an IPv6 address, in one spelling whatever the address's (`::` and leading zeros expanded). */
function ipv6Prefix(address: string): string {
  const groups = (part: string) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : [];
  const [head = '', tail] = address.split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** A user id as a key of bounded length (the PostgreSQL store keeps keys of up to 255 characters). */
const userKey = (userId: string) =>
  userId.length <= 100 ? userId : createHash('sha256').update(userId).digest('base64url');

/** Whether the request presents a token to be checked: a bearer token, or a sign-in. */
const presentsToken = (c: Context) =>
  c.req.header('authorization') !== undefined || (c.req.path === '/api/session' && c.req.method === 'POST');

/**
 * The sends that start or queue a prompt (a tool run is a prompt too, and so is an OpenAI or AI SDK client's
 * request, a goal set or resumed: each starts its next prompt), and forks: one costs the store a copy of the
 * shared history's ids, as much as a send.
 */
const PROMPT_SEND =
  /^(\/api\/conversations\/[^/]+\/(prompts|messages|tool-runs|fork|goal|goal\/resume)|\/api\/ai-sdk\/chat|\/v1\/(chat\/completions|responses))\/?$/;
const isPromptSend = (c: Context) => c.req.method === 'POST' && PROMPT_SEND.test(c.req.path);

/** The API, counted per user once signed in: Tessera's own and the OpenAI-compatible one. */
const isApi = (path: string) => path.startsWith('/api/') || path.startsWith('/v1/');

type Counted = { refused: boolean; res: RateLimiterRes };

/**
 * The limits, as middleware. Around authentication on `/api/*`, `around(authenticate)` gives three handlers:
 *
 * 1. Before it: an address blocked for failed attempts may not present a token (a bearer token or a
 *    sign-in) until its block ends; its token is not even looked at, so that the answer (429 whether the
 *    token is valid or not) tells a guesser nothing. After the answer, a 401 to a request that presented a
 *    token counts as a failed attempt of its address; the attempt that reaches `failedAuth.max` blocks the
 *    address for `blockSeconds`. A 401 without a token (no credentials, or a session cookie that is no
 *    longer valid: signed, so not a thing to guess) counts as unauthenticated traffic of the address instead.
 * 2. Authentication itself.
 * 3. After it: a signed-in request counts for its user (and a prompt send for the user's prompts); signing in
 *    or out counts for the address.
 *
 * `outsideApi` counts every other request (the web UI's files, the API document and reference) for its
 * address. Each limit answers 429 with `Retry-After` (seconds) and the `RateLimit-*` headers.
 */
export function rateLimit(limits: RateLimiters | undefined, log?: Logger) {
  if (!limits) {
    const none: Handler = (_c, next) => next();
    return { around: (authenticate: Handler): Handler[] => [authenticate], outsideApi: none };
  }
  const { failedAuth, requestsPerUser, promptsPerUser, requestsPerAddress, trustProxy } = limits;

  /** Counts one for `key`; undefined when the store failed beyond its memory fallback (then it lets it be). */
  const count = async (limit: Limit, key: string): Promise<Counted | undefined> => {
    try {
      return { refused: false, res: await limit.counter.consume(key) };
    } catch (error) {
      if (error instanceof RateLimiterRes) return { refused: true, res: error };
      log?.warn({ err: error }, 'counting a rate limit failed');
      return undefined;
    }
  };

  /** How long the address must wait before presenting a token again (0: it need not). */
  const blockedFor = async (address: string): Promise<number> => {
    if (!failedAuth) return 0;
    const res = await failedAuth.counter.get(address).catch((error: unknown) => {
      log?.warn({ err: error }, 'reading a rate limit failed');
      return null;
    });
    // A count whose window is over may still be read (the memory store drops it on a timer): it is over.
    return res && res.consumedPoints >= failedAuth.max && res.msBeforeNext > 0 ? res.msBeforeNext : 0;
  };

  const failed = async (address: string): Promise<void> => {
    if (!failedAuth) return;
    const counted = await count(failedAuth, address);
    // Blocked once, by the failure that reached the limit (later ones, in flight together, find it blocked).
    if (counted?.res.consumedPoints === failedAuth.max && failedAuth.blockSeconds > 0) {
      log?.warn({ address, seconds: failedAuth.blockSeconds }, 'an address is blocked after failed sign-ins');
      await failedAuth.counter.block(address, failedAuth.blockSeconds).catch((error: unknown) => {
        log?.warn({ err: error }, 'blocking an address failed');
      });
    }
  };

  const guard: Handler = async (c, next) => {
    const address = clientAddress(c, trustProxy);
    const token = presentsToken(c);
    if (token && failedAuth) {
      const ms = await blockedFor(address);
      if (ms > 0) return tooMany(c, ms, 'Too many failed sign-ins from your address.', failedAuth);
    }
    await next();
    if (c.res.status !== 401 || (c.var.userId as string | undefined) !== undefined) return;
    if (token) return failed(address);
    if (!requestsPerAddress) return;
    const counted = await count(requestsPerAddress, address);
    if (counted?.refused)
      c.res = tooMany(
        c,
        counted.res.msBeforeNext,
        'Too many requests from your address.',
        requestsPerAddress,
      );
  };

  const meter: Handler = async (c, next) => {
    const userId = c.var.userId as string | undefined;
    if (userId === undefined) {
      // Signing in or out (the routes that need no credentials): not signed in, so per address.
      if (requestsPerAddress) {
        const counted = await count(requestsPerAddress, clientAddress(c, trustProxy));
        if (counted?.refused) {
          const message = 'Too many requests from your address.';
          return tooMany(c, counted.res.msBeforeNext, message, requestsPerAddress);
        }
      }
      return next();
    }
    const key = userKey(userId);
    const checks: [Limit | undefined, string][] = [
      [requestsPerUser, 'Too many requests.'],
      [isPromptSend(c) ? promptsPerUser : undefined, 'Too many prompts sent.'],
    ];
    let shown: [Limit, RateLimiterRes] | undefined;
    for (const [limit, message] of checks) {
      if (!limit) continue;
      const counted = await count(limit, key);
      if (counted?.refused) return tooMany(c, counted.res.msBeforeNext, message, limit);
      if (counted) shown = [limit, counted.res];
    }
    // The narrowest limit that applies: a prompt send's, else the user's.
    if (shown) for (const [name, value] of Object.entries(rateLimitHeaders(...shown))) c.header(name, value);
    return next();
  };

  const outsideApi: Handler = async (c, next) => {
    if (!requestsPerAddress || isApi(c.req.path)) return next();
    const counted = await count(requestsPerAddress, clientAddress(c, trustProxy));
    if (counted?.refused) {
      const message = 'Too many requests from your address.';
      return tooMany(c, counted.res.msBeforeNext, message, requestsPerAddress);
    }
    return next();
  };

  return { around: (authenticate: Handler): Handler[] => [guard, authenticate, meter], outsideApi };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers, as most APIs send them). */
function rateLimitHeaders(limit: Limit, res: RateLimiterRes): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit.max),
    'RateLimit-Remaining': String(res.remainingPoints),
    'RateLimit-Reset': String(seconds(res.msBeforeNext)),
    'RateLimit-Policy': `${limit.max};w=${limit.windowSeconds}`,
  };
}

function tooMany(c: Context, ms: number, message: string, limit: Limit): Response {
  const wait = seconds(ms);
  return c.json<ErrorBody>(
    { error: { code: 'rate_limited', message: `${message} Try again in ${wait} s.` } },
    429,
    {
      'Retry-After': String(wait),
      ...rateLimitHeaders(limit, new RateLimiterRes(0, wait * 1000)),
    },
  );
}
