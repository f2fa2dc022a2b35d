// @vitest-environment node
// End-to-end security: the built UI in Debian's Chromium, against the real server with a scripted model.
// Sign-in by session cookie (no token in any request URL), the CSP (no violation in normal use, no request
// to another origin whatever the model writes), the API reference offline, the browser's time zone.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './support/chromium.ts';

const TOKEN = 'e2e-security-token-0123456789';
const model = new ScriptedModel();

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let browser: Browser;
let dataDir: string;
const dist = inject('webDir');
/** Another origin: what it receives is what a model's text made the browser leak. */
let elsewhere: Server;
let elsewhereUrl: string;
const leaked: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-e2e-security-'));
  server = await createServer({
    dataDir,
    auth: { tokens: { [TOKEN]: 'ada' } },
    model,
    plugins: [demoPlugin],
    webDir: dist,
  });
  ({ url } = await server.listen({ port: 0 }));
  elsewhere = createHttpServer((request, response) => {
    leaked.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  // localhost, not 127.0.0.1: another origin, yet reachable.
  elsewhereUrl = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close({ graceMs: 50 });
  await new Promise((resolve) => elsewhere?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

/** Every request the page makes, every CSP violation it reports (console and event), in one context. */
async function watchedContext(options: { timezoneId?: string } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  const requests: string[] = [];
  const answered: string[] = [];
  const violations: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  context.on('response', (response) => answered.push(response.url()));
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      violations.push(message.text());
  });
  // Runs in every page before its scripts (Playwright's init scripts are not subject to the page's CSP).
  await context.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = list;
    document.addEventListener('securitypolicyviolation', (event) => {
      list.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const violationEvents = async (page: Page) =>
    page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);
  return { context, requests, answered, violations, violationEvents };
}

async function signInByLink(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/#token=${TOKEN}`);
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return page;
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('security in the browser', () => {
  it('the built UI has no inline script (the CSP allows none)', async () => {
    const html = await readFile(join(dist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(body!.trim()).toBe('');
    }
  });

  it('signs in with the link once: an HttpOnly cookie, the token gone from the address, in no request URL, no CSP violation', async () => {
    const { context, requests, violations, violationEvents } = await watchedContext();
    model.push(callTool('demo.report', { products: 3 }), reply('Here is the **report**.'));
    const page = await signInByLink(context);
    expect(page.url()).not.toContain(TOKEN);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'tessera_session', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe(''); // scripts cannot read it
    expect(await page.evaluate(() => localStorage.getItem('tessera.token'))).toBeNull();

    await send(page, 'make a sales report');
    await page.getByText('Here is the').waitFor();
    // The download link carries no token: the cookie authorizes it.
    const href = (await page.getByRole('link', { name: 'sales-report.csv' }).getAttribute('href'))!;
    expect(href).not.toContain('token');
    const download = await page.evaluate(async (link) => {
      const response = await fetch(link);
      return { status: response.status, text: await response.text() };
    }, href);
    expect(download.status).toBe(200);
    expect(download.text.split('\n')[0]).toBe('product,units,revenue');

    // A reload keeps the session (the cookie), with no token anywhere.
    await page.reload();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await page.getByText('Here is the').waitFor();

    expect(requests.some((request) => request.includes('/api/conversations/'))).toBe(true);
    expect(requests.filter((request) => request.includes(TOKEN) || /[?&#]token=/.test(request))).toEqual([]);
    expect(requests.filter((request) => !request.startsWith(url))).toEqual([]);
    expect(violations).toEqual([]);
    expect(await violationEvents(page)).toEqual([]);
    await context.close();
  });

  it('a wrong token in the link is refused with a message, and the page asks for a token', async () => {
    const { context } = await watchedContext();
    const page = await context.newPage();
    await page.goto(`${url}/#token=not-the-token`);
    await page.getByRole('alert').filter({ hasText: 'This token is not valid.' }).waitFor();
    expect(page.url()).not.toContain('not-the-token');
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it('no model or tool text makes the page request another origin', async () => {
    const { context, answered } = await watchedContext();
    const image = (name: string) => `${elsewhereUrl}/${name}.png?d=SECRET`;
    model.push(
      // The tool's input and output, and the widgets it shows, all carry the image (a city name of ≤ 60 chars).
      callTool('demo.weather', { city: `![t](${elsewhereUrl}/t.png)` }),
      reply(
        [
          `Here: ![chart](${image('markdown')})`,
          `<img src="${image('html')}">`,
          `[a link](${elsewhereUrl}/link)`,
          `<iframe src="${elsewhereUrl}/frame"></iframe>`,
          `<link rel="stylesheet" href="${elsewhereUrl}/style.css">`,
          'Done.',
        ].join('\n\n'),
      ),
    );
    const page = await signInByLink(context);
    await send(page, 'show me');
    await page.getByText('Done.').waitFor();
    await page.locator('.state-completed').waitFor();
    await page.reload(); // the stored record, rendered from scratch
    await page.getByText('Done.').waitFor();
    // What reached the other origin (requests the CSP blocked never leave the browser).
    expect(leaked).toEqual([]);
    expect(answered.filter((response) => !response.startsWith(url))).toEqual([]);
    await context.close();
  });

  it("sends the browser's time zone with a message: it reaches the prompt", async () => {
    const { context } = await watchedContext({ timezoneId: 'Asia/Tokyo' });
    model.push(reply('Konnichiwa.'));
    const page = await signInByLink(context);
    await send(page, 'What time is it?');
    await page.getByText('Konnichiwa.').waitFor();
    const conversationId = decodeURIComponent(new URL(page.url()).hash.slice(1));
    const [prompt] = await server.platform.conversations.prompts(conversationId, 'ada');
    expect(prompt?.metadata).toMatchObject({ timeZone: 'Asia/Tokyo' });
    expect(model.requests.at(-1)?.instructions).toContain("in Asia/Tokyo, the user's time zone");
    await context.close();
  });

  it('/docs renders the API reference with every other host blocked, without CSP violations', async () => {
    const { context, violations, violationEvents } = await watchedContext();
    const outside: string[] = [];
    await context.route(
      (target) => !target.href.startsWith(url),
      (route) => {
        outside.push(route.request().url());
        return route.abort();
      },
    );
    const page = await context.newPage();
    await page.goto(`${url}/docs`);
    await page.getByText('The HTTP API of a Tessera server').first().waitFor();
    await page.getByText('Sign in with a token').first().waitFor(); // the first tag's operations, open
    await page.screenshot({ path: new URL('./screenshots/docs-offline.png', import.meta.url).pathname });
    expect(outside).toEqual([]);
    expect(violations).toEqual([]);
    expect(await violationEvents(page)).toEqual([]);
    await context.close();
  });
});
