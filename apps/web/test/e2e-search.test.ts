// @vitest-environment node
// End-to-end test of the sidebar's search in Debian's Chromium against the real server (its default store,
// PGlite) with a scripted model: words only in an answer are found, highlighted; another user's are not.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@tessera/server';
import { reply, ScriptedModel } from '@tessera/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { audit } from './support/axe.ts';
import { launchChromium } from './support/chromium.ts';

const ADA = 'e2e-search-ada-0123456789abcdef';
const BOB = 'e2e-search-bob-0123456789abcdef';

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let browser: Browser;
let dataDir: string;
const dist = inject('webDir');
const model = new ScriptedModel([
  reply(['The capital of Italy is Rome, on the Tiber.']),
  reply(['Rome is also in Georgia, said Bob.']),
]);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-e2e-search-'));
  server = await createServer({
    dataDir,
    auth: { tokens: { [ADA]: 'ada', [BOB]: 'bob' } },
    model,
    webDir: dist,
  });
  url = (await server.listen({ port: 0 })).url;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close({ graceMs: 50 });
  await rm(dataDir, { recursive: true, force: true });
});

const api = async (token: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return (await response.json()) as { id?: string; prompts?: { state: string }[] };
};

/** A conversation of the token's user with one answered message. */
async function answered(token: string, title: string, input: string): Promise<string> {
  const { id } = await api(token, '/api/conversations', { title });
  await api(token, `/api/conversations/${id}/prompts`, { input });
  await expect
    .poll(async () => (await api(token, `/api/conversations/${id}`)).prompts?.[0]?.state, { timeout: 60_000 })
    .toBe('completed');
  return id!;
}

describe('search', () => {
  it('finds a word only in an answer, highlighted, and never another user’s conversation', async () => {
    const mine = await answered(ADA, 'Holiday questions', 'What is the capital of Italy?');
    await answered(BOB, 'Bob travels', 'Tell me something');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${url}/?token=${ADA}`);
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('button', { name: 'Holiday questions' }).waitFor();

    await nav.getByRole('searchbox', { name: 'Search conversations' }).fill('rome');
    const results = nav.getByRole('region', { name: 'In messages and answers' });
    const hit = results.getByRole('button', { name: /Holiday questions/ });
    await hit.waitFor();
    expect(await results.locator('mark').allTextContents()).toEqual(['Rome']);
    expect(await hit.textContent()).toContain('The capital of Italy is Rome, on the Tiber.');
    // The hit's title and snippet start at its left edge, and the snippet wraps within it: the conversation
    // list's rows (centred, on one line, cut) are not its style.
    const [button, title, snippet] = await Promise.all(
      [hit, hit.locator('.conversation-title'), hit.locator('.search-snippet')].map((l) => l.boundingBox()),
    );
    expect(Math.abs(title!.x - snippet!.x)).toBeLessThan(1);
    expect(title!.x - button!.x).toBeLessThan(20);
    expect(snippet!.x + snippet!.width).toBeLessThanOrEqual(button!.x + button!.width);
    expect(snippet!.height).toBeGreaterThan(title!.height); // two lines or more in a 260-pixel sidebar
    // Bob's answer also says Rome: it is not Ada's to find.
    expect(await results.getByRole('button').count()).toBe(1);
    expect(await nav.getByText(/Bob|Georgia/).count()).toBe(0);
    await audit(page);

    await hit.click();
    await page.getByRole('heading', { level: 1, name: 'Holiday questions' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#${mine}`);

    // Words nowhere: said so.
    await nav.getByRole('searchbox', { name: 'Search conversations' }).fill('zanzibar');
    await nav.getByText('No conversation matches “zanzibar”.').waitFor();
    await context.close();
  });
});
