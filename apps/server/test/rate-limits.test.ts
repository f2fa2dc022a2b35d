import { mkdtemp } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '@tessera/core';
import { reply } from '@tessera/testing';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CreateServerOptions, loadConfig } from '../src/index.ts';
import { ALICE, BOB, testServer } from './harness.ts';
import { serverDatabase } from './support/server-database.ts';

/**
 * Rate limits: failed sign-ins per address, requests and prompt sends per user, unauthenticated requests per
 * address; the client's address from the connection unless proxies are trusted; with a PostgreSQL server,
 * one limit for every process on it.
 */

type Server = Awaited<ReturnType<typeof testServer>>;
const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const serve = async (script: Parameters<typeof testServer>[0] = [], options: CreateServerOptions = {}) => {
  // A store in memory (quick to start), unless the test is about a PostgreSQL server.
  const server = await testServer(script, {
    ...(!options.databaseUrl && { store: createMemoryStore() }),
    ...options,
  });
  servers.push(server);
  return server;
};

// The body as JSON.parse gives it: tests read whichever fields the answer has.
type Answer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: ReturnType<typeof JSON.parse>;
};

/**
 * One request from a chosen loopback address (`from`, default 127.0.0.1): any of 127.0.0.0/8 is this machine,
 * so the server sees clients at different addresses.
 */
function send(
  url: string,
  options: {
    method?: string;
    token?: string;
    headers?: Record<string, string>;
    body?: unknown;
    from?: string;
  } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(options.token && { authorization: `Bearer ${options.token}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text && res.headers['content-type']?.includes('json') ? JSON.parse(text) : text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const WRONG = 'not-a-token-of-anyone-0123';

/** `count` requests with a wrong token, each answered 401 (the limit is not reached yet). */
async function failSignIns(url: string, count: number, options: Parameters<typeof send>[1] = {}) {
  for (let i = 0; i < count; i++) {
    const answer = await send(`${url}/api/me`, { token: `${WRONG}-${i}`, ...options });
    expect([i, answer.status]).toEqual([i, 401]);
  }
}

function expectRateLimited(answer: Answer, most: number) {
  expect(answer.status).toBe(429);
  expect(answer.body.error.code).toBe('rate_limited');
  const retryAfter = Number(answer.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(most);
  expect(answer.body.error.message).toContain(`Try again in ${retryAfter} s.`);
  expect(answer.headers['ratelimit-limit']).toBeDefined();
}

/** The cookie of a browser that signed in with `token`, from `from`. */
async function signIn(url: string, token: string, from?: string): Promise<string> {
  const answer = await send(`${url}/api/session`, { method: 'POST', body: { token }, from });
  expect(answer.status).toBe(200);
  return String(answer.headers['set-cookie']).split(';')[0]!;
}

describe('failed sign-ins, per client address', () => {
  it('answers the 11th wrong token from an address with 429 and Retry-After, and then no token from it (not even a valid one); a signed-in browser and other addresses carry on', async () => {
    const t = await serve();
    const cookie = await signIn(t.url, BOB);
    await failSignIns(t.url, 10);
    expectRateLimited(await send(`${t.url}/api/me`, { token: `${WRONG}-10` }), 900);

    // Blocked: a token is not looked at, so the answer tells a guesser nothing, whether right or wrong.
    expectRateLimited(await send(`${t.url}/api/me`, { token: ALICE }), 900);
    expectRateLimited(await send(`${t.url}/api/session`, { method: 'POST', body: { token: ALICE } }), 900);
    expectRateLimited(await send(`${t.url}/api/session`, { method: 'POST', body: { token: WRONG } }), 900);
    // A session cookie (signed, not guessable) still works from the blocked address.
    const me = await send(`${t.url}/api/me`, { headers: { cookie } });
    expect([me.status, me.body.userId]).toEqual([200, 'bob']);
    // Another address is not blocked.
    expect((await send(`${t.url}/api/me`, { token: ALICE, from: '127.0.0.2' })).status).toBe(200);
    expect((await send(`${t.url}/api/me`, { token: WRONG, from: '127.0.0.2' })).status).toBe(401);
  });

  it('counts wrong sign-ins at POST /api/session as failures too', async () => {
    const t = await serve();
    for (let i = 0; i < 10; i++) {
      const answer = await send(`${t.url}/api/session`, { method: 'POST', body: { token: `${WRONG}-${i}` } });
      expect([i, answer.status]).toEqual([i, 401]);
    }
    const answer = await send(`${t.url}/api/session`, { method: 'POST', body: { token: ALICE } });
    expectRateLimited(answer, 900);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('lets an address present tokens again once its block is over', async () => {
    const t = await serve([], { rateLimits: { failedAuth: { max: 3, blockSeconds: 120 } } });
    vi.useFakeTimers({ toFake: ['Date'] });
    await failSignIns(t.url, 3);
    expectRateLimited(await send(`${t.url}/api/me`, { token: ALICE }), 120);
    vi.setSystemTime(Date.now() + 121_000);
    expect((await send(`${t.url}/api/me`, { token: ALICE })).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless told to trust proxies: a spoofed header does not dodge the limit', async () => {
    const t = await serve();
    for (let i = 0; i < 10; i++) {
      const headers = { 'x-forwarded-for': `203.0.113.${i}` };
      expect((await send(`${t.url}/api/me`, { token: WRONG, headers })).status).toBe(401);
    }
    const headers = { 'x-forwarded-for': '198.51.100.1' };
    expectRateLimited(await send(`${t.url}/api/me`, { token: WRONG, headers }), 900);
  });

  it('with trustProxy, keys on the address the proxy appended, whatever the client wrote before it', async () => {
    const t = await serve([], { trustProxy: true });
    for (let i = 0; i < 10; i++) {
      // The client writes the first entry (spoofed, different each time); the proxy appends the second.
      const headers = { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` };
      expect((await send(`${t.url}/api/me`, { token: WRONG, headers })).status).toBe(401);
    }
    const blocked = { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' };
    expectRateLimited(await send(`${t.url}/api/me`, { token: ALICE, headers: blocked }), 900);
    // Another client behind the same proxy (the same connection address) is not blocked.
    const other = { 'x-forwarded-for': '203.0.113.8' };
    expect((await send(`${t.url}/api/me`, { token: ALICE, headers: other })).status).toBe(200);
  });
});

describe('requests and prompt sends, per user', () => {
  it('answers prompt sends past the limit with 429 (prompts and messages alike); another user is unaffected', async () => {
    const t = await serve([reply('one'), reply('two'), reply('three')], {
      rateLimits: { promptsPerUser: { max: 2, windowSeconds: 60 } },
    });
    const conversation = async (token: string) =>
      (await send(`${t.url}/api/conversations`, { method: 'POST', token, body: {} })).body.id as string;
    const [first, second, third] = [
      await conversation(ALICE),
      await conversation(ALICE),
      await conversation(ALICE),
    ];
    const prompt = (id: string, token = ALICE) =>
      send(`${t.url}/api/conversations/${id}/prompts`, { method: 'POST', token, body: { input: 'hi' } });
    expect((await prompt(first)).status).toBe(202);
    const message = await send(`${t.url}/api/conversations/${second}/messages`, {
      method: 'POST',
      token: ALICE,
      body: { input: 'hi', mode: 'queue' },
    });
    expect(message.status).toBe(202);
    expectRateLimited(await prompt(third), 60);
    expect((await prompt(third)).headers['ratelimit-policy']).toBe('2;w=60');
    // Reading is not sending: alice can still read, and bob can send.
    expect((await send(`${t.url}/api/conversations/${third}`, { token: ALICE })).status).toBe(200);
    expect((await prompt(await conversation(BOB), BOB)).status).toBe(202);
  });

  it('counts a fork as a prompt send', async () => {
    const t = await serve([reply('one')], { rateLimits: { promptsPerUser: { max: 2, windowSeconds: 60 } } });
    const id = (await send(`${t.url}/api/conversations`, { method: 'POST', token: ALICE, body: {} })).body.id;
    const sent = await send(`${t.url}/api/conversations/${id}/prompts`, {
      method: 'POST',
      token: ALICE,
      body: { input: 'hi' },
    });
    expect(sent.status).toBe(202);
    const fork = () =>
      send(`${t.url}/api/conversations/${id}/fork`, {
        method: 'POST',
        token: ALICE,
        body: { promptId: sent.body.prompt.id },
      });
    expect((await fork()).status).toBe(201);
    expectRateLimited(await fork(), 60);
  });

  it("answers a user's requests past the limit with 429; another user, at the same address, is unaffected", async () => {
    const t = await serve([], { rateLimits: { requestsPerUser: { max: 5, windowSeconds: 60 } } });
    for (let i = 0; i < 5; i++) {
      const answer = await send(`${t.url}/api/conversations`, { token: ALICE });
      expect(answer.status).toBe(200);
      expect(answer.headers['ratelimit-remaining']).toBe(String(4 - i));
    }
    expectRateLimited(await send(`${t.url}/api/conversations`, { token: ALICE }), 60);
    expect((await send(`${t.url}/api/conversations`, { token: BOB })).status).toBe(200);
  });

  it('limits the loopback local user too', async () => {
    const t = await serve([], {
      auth: { tokens: {}, loopbackWithoutAuth: true },
      rateLimits: { requestsPerUser: { max: 3, windowSeconds: 60 } },
    });
    for (let i = 0; i < 3; i++) expect((await send(`${t.url}/api/me`)).status).toBe(200);
    expectRateLimited(await send(`${t.url}/api/me`), 60);
  });
});

describe('unauthenticated requests, per address', () => {
  it('answers 429 past the limit: the API document, sign-ins and requests without credentials alike', async () => {
    const t = await serve([], { rateLimits: { requestsPerAddress: { max: 3, windowSeconds: 60 } } });
    expect((await send(`${t.url}/openapi.json`)).status).toBe(200);
    expect((await send(`${t.url}/api/session`, { method: 'POST', body: { token: ALICE } })).status).toBe(200);
    expect((await send(`${t.url}/api/me`)).status).toBe(401);
    expectRateLimited(await send(`${t.url}/openapi.json`), 60);
    expect((await send(`${t.url}/openapi.json`, { from: '127.0.0.2' })).status).toBe(200);
    // Signed-in requests count for their user, not for the address.
    expect((await send(`${t.url}/api/me`, { token: ALICE })).status).toBe(200);
  });
});

describe('settings', () => {
  it('turns every limit off with rateLimits: false, and one with a max of 0', async () => {
    const off = await serve([], { rateLimits: false });
    await failSignIns(off.url, 30);
    const one = await serve([], { rateLimits: { failedAuth: { max: 0 } } });
    await failSignIns(one.url, 30);
  });

  it('reads TESSERA_RATE_LIMITS and TESSERA_TRUST_PROXY from the environment', async () => {
    const load = async (env: NodeJS.ProcessEnv) =>
      (await loadConfig({ env, cwd: await mkdtemp(join(tmpdir(), 'tessera-cwd-')) })).options;
    expect(await load({})).toMatchObject({
      rateLimits: { failedAuth: { max: 10, windowSeconds: 60, blockSeconds: 900 } },
      trustProxy: false,
    });
    expect(await load({ TESSERA_RATE_LIMITS: 'false', TESSERA_TRUST_PROXY: '2' })).toMatchObject({
      rateLimits: false,
      trustProxy: 2,
    });
    expect(await load({ TESSERA_TRUST_PROXY: 'true' })).toMatchObject({ trustProxy: true });
    await expect(load({ TESSERA_RATE_LIMITS: 'off', TESSERA_TRUST_PROXY: 'yes' })).rejects.toThrow(
      /rateLimits[\s\S]*trustProxy/,
    );
  });

  it('documents the 429 of every operation', async () => {
    const t = await serve();
    const { body: doc } = await send(`${t.url}/openapi.json`);
    const operations = Object.values(
      doc.paths as Record<string, Record<string, { responses: object }>>,
    ).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) expect(Object.keys(operation.responses)).toContain('429');
  });
});

describe('with a PostgreSQL server', () => {
  it('holds one limit of failed attempts for every server on the database, and per-user limits per server', async () => {
    const database = await serverDatabase();
    try {
      const options = {
        databaseUrl: database.url,
        rateLimits: { requestsPerUser: { max: 4, windowSeconds: 60 } },
      };
      const [a, b] = [await serve([], options), await serve([], options)];
      // Failed sign-ins alternate between the two servers: together they reach the limit.
      for (let i = 0; i < 10; i++) {
        const answer = await send(`${(i % 2 ? a : b).url}/api/me`, { token: `${WRONG}-${i}` });
        expect([i, answer.status]).toEqual([i, 401]);
      }
      expectRateLimited(await send(`${a.url}/api/me`, { token: WRONG }), 900);
      expectRateLimited(await send(`${b.url}/api/me`, { token: ALICE }), 900);
      // A signed-in user's requests are counted by each process (sharing them would cost two round trips
      // a request): Bob, from another address, gets the limit on each server.
      for (const server of [a, b, a, b, a, b, a, b])
        expect((await send(`${server.url}/api/me`, { token: BOB, from: '127.0.0.2' })).status).toBe(200);
      expectRateLimited(await send(`${a.url}/api/me`, { token: BOB, from: '127.0.0.2' }), 60);
      expectRateLimited(await send(`${b.url}/api/me`, { token: BOB, from: '127.0.0.2' }), 60);
    } finally {
      await Promise.all(servers.splice(0).map((server) => server.close()));
      await database.drop();
    }
  });

  it('counts in memory when the database fails: neither everyone locked out nor everyone let in', async () => {
    const database = await serverDatabase();
    try {
      const t = await serve([], { databaseUrl: database.url });
      // The counts' table is gone: every count fails in PostgreSQL, and this process's memory stands in.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('DROP TABLE tessera.rate_limits');
      } finally {
        await client.end();
      }
      expect((await send(`${t.url}/api/me`, { token: ALICE })).status).toBe(200);
      await failSignIns(t.url, 10, { from: '127.0.0.2' });
      expectRateLimited(await send(`${t.url}/api/me`, { token: WRONG, from: '127.0.0.2' }), 900);
      expect((await send(`${t.url}/api/me`, { token: ALICE })).status).toBe(200);
    } finally {
      await Promise.all(servers.splice(0).map((server) => server.close()));
      await database.drop();
    }
  });
});
