import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALICE, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
let web: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (web) await rm(web, { recursive: true, force: true });
  web = undefined;
});

const UI_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; media-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const get = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { authorization: `Bearer ${ALICE}`, ...init.headers } });

function expectCommonHeaders(response: Response) {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
}

describe('security headers', () => {
  it('are on every response: the UI, the API, errors, the event stream, the OpenAPI document', async () => {
    web = await mkdtemp(join(tmpdir(), 'tessera-web-'));
    await writeFile(join(web, 'index.html'), '<!doctype html><title>Tessera UI</title>');
    t = await testServer([reply('Hi.')], {}, web);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const events = await get(`${t.url}/api/conversations/${conversation.id}/events`);
    const responses = {
      ui: await fetch(`${t.url}/`),
      uiRoute: await fetch(`${t.url}/some/page`),
      api: await get(`${t.url}/api/conversations`),
      unauthorized: await fetch(`${t.url}/api/conversations`),
      notFound: await get(`${t.url}/api/nowhere`),
      invalid: await get(`${t.url}/api/conversations?limit=0`),
      openapi: await fetch(`${t.url}/openapi.json`),
      health: await fetch(`${t.url}/health`),
      events,
    };
    await events.body?.cancel();
    for (const [name, response] of Object.entries(responses)) {
      expect.soft(response.headers.get('content-security-policy'), name).toBe(UI_CSP);
      expectCommonHeaders(response);
    }
    expect(responses.unauthorized.status).toBe(401);
    expect(responses.notFound.status).toBe(404);
    expect(responses.invalid.status).toBe(400);
  });

  it("keep a file download's own sandboxing CSP", async () => {
    t = await testServer([reply('Got it.')]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const form = new FormData();
    form.set('input', 'A page');
    form.append('files', new File(['<script>alert(1)</script>'], 'page.html', { type: 'text/html' }));
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { form });
    const fileId = sent.body.prompt.output[0].fileId as string;
    const download = await get(`${t.url}/api/conversations/${conversation.id}/files/${fileId}?inline=1`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-security-policy')).toBe(
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    );
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('referrer-policy')).toBe('no-referrer');

    // A browser signed in by its session cookie downloads with it (no token in the link).
    const signedIn = await fetch(`${t.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: ALICE }),
    });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const byCookie = await fetch(`${t.url}/api/conversations/${conversation.id}/files/${fileId}`, {
      headers: { cookie },
    });
    expect([byCookie.status, await byCookie.text()]).toEqual([200, '<script>alert(1)</script>']);
  });

  it('/docs is served with its viewer from this server (no other host) under a CSP of its own without inline script', async () => {
    t = await testServer();
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>/); // every script has a src
    expect([...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '/docs/no-eval.js',
      '/docs/viewer.js',
      '/docs/init.js',
    ]);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expectCommonHeaders(page);
    const viewer = await fetch(`${t.url}/docs/viewer.js`);
    expect(viewer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await viewer.text()).length).toBeGreaterThan(1_000_000);
    expect(await (await fetch(`${t.url}/docs/init.js`)).text()).toContain('"url":"/openapi.json"');
  });
});

describe('friendly errors', () => {
  it('an unknown conversation is a JSON 404 that says so, its event stream too; open streams of a deleted one end', async () => {
    t = await testServer();
    const detail = await t.request('GET', '/api/conversations/conv_nope');
    const events = await get(`${t.url}/api/conversations/conv_nope/events`);
    for (const [status, body] of [
      [detail.status, detail.body],
      [events.status, await events.json()],
    ]) {
      expect(status).toBe(404);
      expect(body).toEqual({
        error: { code: 'not_found', message: expect.stringMatching(/conv_nope/) },
      });
    }
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const open = await get(`${t.url}/api/conversations/${conversation.id}/events`);
    const reader = open.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain('event: ready');
    await t.request('DELETE', `/api/conversations/${conversation.id}`);
    // The open stream ends (EventSource then reconnects and gets the 404 below), instead of hanging on.
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    expect(rest).toBe('');
    const deleted = await get(`${t.url}/api/conversations/${conversation.id}/events`);
    expect(deleted.status).toBe(404);
    expect(deleted.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe("the user's time zone", () => {
  it("is recorded on the prompt (metadata.timeZone), reaches the model's context, and is refused when unknown", async () => {
    t = await testServer([reply('Hi.')]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}/prompts`;
    const bad = await t.request('POST', path, { body: { input: 'Hi', timeZone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("an IANA time zone such as 'Europe/Paris'");
    const sent = await t.request('POST', path, { body: { input: 'Hi', timeZone: 'Europe/Paris' } });
    expect(sent.status).toBe(202);
    expect(sent.body.prompt.metadata).toEqual({ timeZone: 'Europe/Paris' });
    const prompt = sent.body.prompt.id as string;
    await vi.waitFor(
      async () => expect((await t!.request('GET', `/api/prompts/${prompt}`)).body.state).toBe('completed'),
      { timeout: 30_000 },
    );
    expect(t.model.requests[0]!.instructions).toMatch(/It is now .+ in Europe\/Paris, the user's time zone/);
  });
});
