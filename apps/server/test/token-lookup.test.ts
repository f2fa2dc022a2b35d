import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModel } from '@tessera/testing';
import fc from 'fast-check';
import { serializeSigned } from 'hono/utils/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type TesseraServer } from '../src/index.ts';
import { ALICE, BOB } from './harness.ts';

/**
 * No string but a configured token signs anyone in, through any of the three doors: the bearer header,
 * the sign-in route and the session cookie. Names of `Object.prototype` (`constructor`, `__proto__`, …)
 * once did, when tokens were looked up in a plain object.
 */

const CONFIGURED = [ALICE, BOB];

/** Every name an object inherits, and a few more of the same kind. */
const INHERITED = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
    ...Object.getOwnPropertyNames(Array.prototype),
    ...Object.getOwnPropertyNames(String.prototype),
    'prototype',
    '__proto__',
    'undefined',
    'null',
    'NaN',
    '0',
  ]),
];
const BLANK = ['', ' ', '  ', '\t', '\u00a0', '\u3000', '\u200b', '\ufeff'];

/** A token that is none of the configured ones, even once an HTTP header's whitespace is trimmed. */
const notConfigured = (token: string) => !CONFIGURED.includes(token.trim());

/** Any string a client could send: arbitrary, unicode, inherited names, blanks, near-misses of real tokens. */
const hostileToken = fc
  .oneof(
    fc.string(),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(...INHERITED, ...BLANK),
    fc.constantFrom(...CONFIGURED).chain((token) =>
      fc.oneof(
        fc.constant(token.toUpperCase()),
        fc.constant(token.slice(0, -1)),
        fc.constant(`${token}x`),
        fc.constant(`x${token}`),
        fc.nat({ max: token.length - 1 }).map((i) => `${token.slice(0, i)}${token.slice(i + 1)}`),
      ),
    ),
  )
  .filter(notConfigured);

/** What a raw client puts on the wire for `text`: its UTF-8 bytes, without the bytes a header cannot carry. */
const asHeaderValue = (text: string) =>
  Buffer.from(text, 'utf8')
    .toString('latin1')
    .replace(/[\r\n\0]/g, '');

const RUNS = 300;

// The server's session key, known to the test so that it can sign cookies as only the server could.
const secret = 'a-session-secret-the-test-knows-0123456789';
let dataDir: string;
let server: TesseraServer;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-tokens-'));
  await writeFile(join(dataDir, 'session-secret'), `${secret}\n`);
  server = await createServer({
    dataDir,
    auth: { tokens: { [ALICE]: 'alice', [BOB]: 'bob' } },
    webDir: null,
    model: new ScriptedModel(),
    // Hundreds of wrong tokens from one client: the limits on failed sign-ins have tests of their own.
    rateLimits: false,
  });
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const request = (path: string, init: RequestInit) => server.app.request(path, init);
const status = async (path: string, init: RequestInit) => (await request(path, init)).status;

describe('tokens are looked up by own keys only, whatever a client sends', () => {
  it('a configured token still works through each door (the control)', async () => {
    expect(await status('/api/me', { headers: { authorization: `Bearer ${ALICE}` } })).toBe(200);
    // The scheme in any case (RFC 9110): some clients send it in lower case.
    for (const scheme of ['bearer', 'BEARER', 'beaRer'])
      expect([scheme, await status('/api/me', { headers: { authorization: `${scheme} ${ALICE}` } })]).toEqual(
        [scheme, 200],
      );
    const signIn = await request('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: BOB }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect(await status('/api/me', { headers: { cookie } })).toBe(200);
  });

  it('the bearer header accepts no other string', async () => {
    await fc.assert(
      fc.asyncProperty(hostileToken, async (token) => {
        const authorization = asHeaderValue(`Bearer ${token}`);
        if (CONFIGURED.includes(authorization.slice(7).trim())) return;
        expect(await status('/api/me', { headers: { authorization } })).toBe(401);
        expect(await status('/api/conversations', { method: 'POST', headers: { authorization } })).toBe(401);
      }),
      { numRuns: RUNS },
    );
  });

  it('the sign-in route accepts no other string', async () => {
    await fc.assert(
      fc.asyncProperty(hostileToken, async (token) => {
        const response = await request('/api/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
        });
        // 400: an empty or over-long token is not a token at all.
        expect([400, 401]).toContain(response.status);
        expect(response.headers.get('set-cookie')).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it('a session cookie accepts no payload but one the server made, even when it is signed', async () => {
    const payload = fc.record({
      u: fc.oneof(fc.constantFrom('alice', 'bob', 'function Object() { [native code] }'), hostileToken),
      f: hostileToken,
      e: fc.oneof(fc.constant(Date.now() + 86_400_000), fc.double()),
    });
    const value = fc.oneof(
      payload.map((p) => Buffer.from(JSON.stringify(p)).toString('base64url')),
      hostileToken.map((text) => Buffer.from(text).toString('base64url')),
      fc.constantFrom('bnVsbA', 'W10', 'MQ', 'InN0cmluZyI'), // null, [], 1, "string"
    );
    await fc.assert(
      fc.asyncProperty(value, fc.boolean(), async (text, signed) => {
        const cookie = signed
          ? (await serializeSigned('tessera_session', text, secret)).split(';')[0]!
          : `tessera_session=${encodeURIComponent(text)}`;
        expect(await status('/api/me', { headers: { cookie } })).toBe(401);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('kept secrets that are not secrets', () => {
  it('an empty local-token or session-secret file is replaced, never used as an empty token or key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tessera-empty-secrets-'));
    await writeFile(join(dir, 'local-token'), '\n');
    await writeFile(join(dir, 'session-secret'), '');
    const local = await createServer({ dataDir: dir, webDir: null, model: new ScriptedModel() });
    try {
      expect(local.token).toMatch(/^[\w-]{32,}$/);
      const me = (authorization: string) => local.app.request('/api/me', { headers: { authorization } });
      expect((await me('Bearer ')).status).toBe(401);
      expect((await me(`Bearer ${local.token}`)).status).toBe(200);
      // Signing in signs a cookie: with an empty key it could not (or anyone could forge one).
      const signIn = await local.app.request('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: local.token }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      expect((await local.app.request('/api/me', { headers: { cookie } })).status).toBe(200);
    } finally {
      await local.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a configured token with spaces or control characters is a configuration error', async () => {
    for (const token of ['                    ', 'a token with spaces in it', 'tab\tseparated-token-000']) {
      await expect(
        createServer({
          dataDir,
          auth: { tokens: { [token]: 'alice' } },
          webDir: null,
          model: new ScriptedModel(),
        }),
      ).rejects.toThrow(/printable ASCII without spaces/);
    }
  });

  it('a token of the user id "shared" is a configuration error: that id owns the blueprints all users share', async () => {
    await expect(
      createServer({
        dataDir,
        auth: { tokens: { 'a-token-of-sixteen-chars': 'shared' } },
        webDir: null,
        model: new ScriptedModel(),
      }),
    ).rejects.toThrow(/"shared" is no user id/);
  });
});
