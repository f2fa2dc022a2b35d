import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply, ScriptedModel } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../src/index.ts';
import { ALICE, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Signs in over HTTP as a browser does; the session cookie (name=value) and the response. */
async function signIn(url: string, token: string) {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { response, setCookie, cookie: setCookie.split(';')[0]! };
}

describe('sign-in for browsers: a token exchanged once for a session cookie', () => {
  it('sets an HttpOnly, SameSite=Strict cookie that authorizes reads, event streams and downloads', async () => {
    t = await testServer();
    const { response, setCookie, cookie } = await signIn(t.url, ALICE);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ userId: 'alice' });
    expect(setCookie).toMatch(/^tessera_session=/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure'); // plain http: a Secure cookie would never come back

    const me = await fetch(`${t.url}/api/me`, { headers: { cookie } });
    expect([me.status, ((await me.json()) as { userId: string }).userId]).toEqual([200, 'alice']);

    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const events = await fetch(`${t.url}/api/conversations/${conversation.id}/events`, {
      headers: { cookie },
    });
    expect([events.status, events.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    await events.body?.cancel();
  });

  it('is Secure on https (behind a proxy that says so)', async () => {
    t = await testServer();
    const response = await fetch(`${t.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ token: ALICE }),
    });
    expect(response.headers.get('set-cookie')).toContain('Secure');
  });

  it('refuses a wrong token with a JSON 401 and sets no cookie', async () => {
    t = await testServer();
    const { response, setCookie } = await signIn(t.url, 'not-a-token');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'unauthorized', message: 'This token is not valid.' },
    });
    expect(setCookie).toBe('');
  });

  it('takes the token as JSON only (a cross-site form cannot sign anyone in)', async () => {
    t = await testServer();
    const response = await fetch(`${t.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${ALICE}`,
    });
    expect(response.status).toBe(415);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('requires X-Requested-With on cookie requests that change anything (CSRF), not on reads or bearer requests', async () => {
    t = await testServer([reply('Hi.')]);
    const { cookie } = await signIn(t.url, ALICE);
    const create = (headers: Record<string, string>) =>
      fetch(`${t!.url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const forged = await create({ cookie });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    expect((await t.request('GET', '/api/conversations')).body.items).toEqual([]);

    const fromTheUi = await create({ cookie, 'x-requested-with': 'tessera-web' });
    expect(fromTheUi.status).toBe(201);
    const { id } = (await fromTheUi.json()) as { id: string };
    const rename = await fetch(`${t.url}/api/conversations/${id}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'hijacked' }),
    });
    expect(rename.status).toBe(403);
    const remove = await fetch(`${t.url}/api/conversations/${id}`, { method: 'DELETE', headers: { cookie } });
    expect(remove.status).toBe(403);
    expect((await t.request('GET', `/api/conversations/${id}`)).status).toBe(200);
    // Programs with a bearer token need no such header.
    expect((await t.request('POST', '/api/conversations', { body: {} })).status).toBe(201);
  });

  it('signing out clears the cookie; a forged or tampered cookie is refused', async () => {
    t = await testServer();
    const { cookie } = await signIn(t.url, ALICE);
    const forged = await fetch(`${t.url}/api/session`, { method: 'DELETE', headers: { cookie } });
    expect([forged.status, forged.headers.get('set-cookie')]).toEqual([403, null]);
    const out = await fetch(`${t.url}/api/session`, {
      method: 'DELETE',
      headers: { cookie, 'x-requested-with': 'tessera-web' },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^tessera_session=;.*Max-Age=0/);

    const [name, value] = cookie.split('=') as [string, string];
    const payload = Buffer.from(JSON.stringify({ u: 'bob', f: 'x', e: Date.now() + 1e9 })).toString(
      'base64url',
    );
    const tampered = `${name}=${payload}.${value.split('.').at(-1)}`;
    for (const bad of [tampered, `${name}=garbage`]) {
      const me = await fetch(`${t.url}/api/me`, { headers: { cookie: bad } });
      expect(me.status).toBe(401);
      expect(await me.json()).toEqual({
        error: { code: 'unauthorized', message: 'Your session has ended: sign in again.' },
      });
    }
  });

  it('keeps sessions across a restart with the same data directory, and ends them when their token is removed', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tessera-sessions-'));
    const serve = (token: string) =>
      createServer({
        dataDir,
        auth: { tokens: { [token]: 'alice' } },
        webDir: null,
        model: new ScriptedModel(),
      });
    try {
      const first = await serve(ALICE);
      const signedIn = await first.app.request('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: ALICE }),
      });
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      await first.close();
      for (const [token, status] of [
        [ALICE, 200],
        ['another-token-0123456789', 401],
      ] as const) {
        const server = await serve(token);
        try {
          expect((await server.app.request('/api/me', { headers: { cookie } })).status).toBe(status);
        } finally {
          await server.close();
        }
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a token in the URL, with a message that says what to do', async () => {
    t = await testServer();
    const response = await fetch(`${t.url}/api/me?token=${ALICE}`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'A token in the URL is not accepted: send it as Authorization: Bearer <token>, or sign in (POST /api/session).',
    );
  });
});

describe('loopback without a token (auth.loopbackWithoutAuth)', () => {
  it('lets programs on this machine act as the local user, but not a page of another site', async () => {
    t = await testServer([], { auth: { tokens: {}, loopbackWithoutAuth: true } });
    const create = (headers: Record<string, string>) =>
      fetch(`${t!.url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    expect((await create({})).status).toBe(201); // curl, the CLI
    expect((await create({ 'sec-fetch-site': 'same-origin' })).status).toBe(201); // the UI itself
    const fromElsewhere: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'http://evil.example' },
    ];
    for (const headers of fromElsewhere) {
      const forged = await create(headers);
      expect([
        forged.status,
        ((await forged.json()) as { error: { message: string } }).error.message,
      ]).toEqual([403, 'A request from another site cannot act as the local user.']);
    }
    const list = await fetch(`${t.url}/api/conversations`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(((await list.json()) as { items: unknown[] }).items).toHaveLength(2);
  });

  it('lets in no page of a name rebound to 127.0.0.1 (DNS rebinding), nor what a local proxy relays', async () => {
    t = await testServer([], { auth: { tokens: {}, loopbackWithoutAuth: true } });
    const { port } = new URL(t.url);
    /** A request with these headers, Host included (fetch sets its own). */
    const send = (method: string, path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const body = method === 'POST' ? '{}' : undefined;
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            headers: { ...headers, 'content-type': 'application/json' },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, body: text }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    // The page of http://rebound.example:<port>, once its name resolves to 127.0.0.1: the same origin as the
    // server in the browser's eyes, so it sends `Sec-Fetch-Site: same-origin` and may read every answer.
    const rebound = { host: `rebound.example:${port}`, 'sec-fetch-site': 'same-origin' };
    expect((await send('GET', '/api/conversations', rebound)).status).toBe(401);
    expect((await send('POST', '/api/conversations', rebound)).status).toBe(401);
    // A reverse proxy on this machine: every client on the internet would arrive from 127.0.0.1.
    const relayed = { host: `127.0.0.1:${port}`, 'x-forwarded-for': '203.0.113.7' };
    expect((await send('GET', '/api/conversations', relayed)).status).toBe(401);
    expect(
      (await send('GET', '/api/conversations', { ...relayed, forwarded: 'for=203.0.113.7' })).status,
    ).toBe(401);
    // This machine by name or address: still the local user (nothing was created above).
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
      const listed = await send('GET', '/api/conversations', { host });
      expect([host, listed.status, (JSON.parse(listed.body) as { items: unknown[] }).items]).toEqual([
        host,
        200,
        [],
      ]);
    }
    expect((await send('POST', '/api/conversations', { host: `localhost:${port}` })).status).toBe(201);
  });
});
