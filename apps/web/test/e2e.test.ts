// @vitest-environment node
// End-to-end: the built UI in Debian's Chromium, against the real server with a scripted model.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mcpPlugin } from '@tessera/plugin-mcp';
import { triggerService, triggersPlugin } from '@tessera/plugin-triggers';
import { type CreateServerOptions, createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { audit } from './support/axe.ts';
import { launchChromium } from './support/chromium.ts';

const TOKEN = 'e2e-token-0123456789abcdef';
const shots = new URL('./screenshots/', import.meta.url).pathname;
const dist = inject('webDir');

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let browser: Browser;
let dataDir: string;
const model = new ScriptedModel();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-e2e-'));
  ({ server, url } = await start());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close({ graceMs: 50 });
  await rm(dataDir, { recursive: true, force: true });
});

/** The server with every plugin, and the demo tools for the scripted model to call. */
async function start(options: CreateServerOptions = {}, port = 0) {
  const started = await createServer({
    dataDir,
    auth: { tokens: { [TOKEN]: 'ada' } },
    model,
    plugins: [demoPlugin],
    webDir: dist,
    ...options,
  });
  return { server: started, url: (await started.listen({ port })).url };
}

/**
 * A signed-in page on a new, stored conversation (made over the API: "New conversation" in the UI stores one
 * only with its first message, and the side panel and triggers are a stored conversation's).
 */
async function newConversation(base = url): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await page.goto(`${base}/?token=${TOKEN}`);
  await page.getByRole('button', { name: 'New conversation' }).first().waitFor();
  expect(page.url()).not.toContain('token='); // signed in, the token leaves the address bar
  const made = await fetch(`${base}/api/conversations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const { id } = (await made.json()) as { id: string };
  await page.goto(`${base}/#${encodeURIComponent(id)}`);
  await page.locator('section.conversation[aria-label="Conversation"]').waitFor();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return page;
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('the web UI', () => {
  it('sends a message and shows the streamed answer; the token leaves the address bar', async () => {
    model.push(reply(['Hello ', 'from ', '**Tessera**.'], { delayMs: 50 }));
    const page = await newConversation();
    expect(page.url()).not.toContain('token=');
    await send(page, 'Hi there');
    await page.getByText('Hello from').waitFor();
    expect(await page.locator('.text-output strong').textContent()).toBe('Tessera');
    await page.locator('.state-completed').waitFor();

    // The conversation is named after its first message, and can be renamed in place.
    const sidebar = page.getByRole('navigation', { name: 'Conversations' });
    const current = sidebar.locator('li.selected');
    await current.getByRole('button', { name: 'Hi there' }).waitFor();
    await current.getByRole('button', { name: 'Rename conversation' }).click();
    await current.getByRole('textbox', { name: 'Conversation title' }).fill('Greetings');
    await page.keyboard.press('Enter');
    await current.getByRole('button', { name: 'Greetings' }).waitFor();
    await page.close();
  });

  it('shows an approval card; Approve resumes the prompt and the result appears', async () => {
    model.push(callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply('Sent $500 to Ada.'));
    const page = await newConversation();
    await send(page, 'transfer $500 to Ada');
    const card = page.getByRole('region', { name: /Approval needed/ });
    await card.waitFor();
    expect(await card.textContent()).toContain('Transfers over $100 need your approval');
    // Waiting, yet writable: a message now steers the answer or queues a follow-up (e2e-loop-control).
    expect(await page.getByRole('textbox', { name: 'Message' }).isDisabled()).toBe(false);
    await page.screenshot({ path: `${shots}approval.png` });
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Sent $500 to Ada.').waitFor();
    expect(await page.locator('.badge-success').count()).toBe(1);
    await page.close();
  });

  it('Reject shows the error the model received', async () => {
    model.push(callTool('demo.delete_records', { names: ['alpha'] }), (request) => {
      const result = request.messages.findLast((m) => m.type === 'function_call_output');
      return reply(`The tool said: ${result?.type === 'function_call_output' ? result.output : '?'}`);
    });
    const page = await newConversation();
    await send(page, 'delete records alpha');
    const card = page.getByRole('region', { name: /Approval needed/ });
    await card.getByRole('textbox').fill('I still need alpha');
    await card.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('The tool said: Error: The user did not approve this call').waitFor();
    expect(await page.getByText('I still need alpha').count()).toBeGreaterThan(0);
    expect(await page.locator('.badge-rejected').count()).toBe(1);
    await page.close();
  });

  it('renders widgets (a table with its rows) and a file that downloads the right bytes', async () => {
    model.push(callTool('demo.report', { products: 5 }), reply('Here is the report.'));
    const page = await newConversation();
    await send(page, 'make a sales report');
    await page.getByText('Here is the report.').waitFor();
    expect(await page.locator('.widget-table tbody tr').count()).toBe(5);
    expect(await page.locator('.widget-progress').textContent()).toContain('100%');
    const link = page.getByRole('link', { name: 'sales-report.csv' });
    const bytes = await page.evaluate(
      async (href) => (await fetch(href)).text(),
      (await link.getAttribute('href'))!,
    );
    expect(bytes.split('\n')[0]).toBe('product,units,revenue');
    expect(bytes.trim().split('\n')).toHaveLength(6);
    await page.screenshot({ path: `${shots}widgets-and-file.png`, fullPage: true });
    await page.close();
  });

  it('passes an automated accessibility audit (WCAG 2 A and AA), wide and narrow', async () => {
    model.push(
      callTool('demo.report', { products: 3 }),
      reply('Here is the **report**.'),
      callTool('demo.transfer', { amount: 500, to: 'Ada' }),
    );
    const page = await newConversation();
    await send(page, 'make a sales report');
    await page.getByText('Here is the').waitFor();
    await send(page, 'transfer $500 to Ada');
    await page.getByRole('region', { name: /Approval needed/ }).waitFor();
    // Widgets, a file, a tool card, an approval card, the side panels and the disabled composer, at once.
    await audit(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await audit(page);
    await page.close();
  });

  it('catches up after a reload in the middle of a prompt', async () => {
    model.push(reply('Finished after the reload.', { delayMs: 800 }));
    const page = await newConversation();
    await send(page, 'take your time');
    await page.locator('.state-running').waitFor();
    await page.reload();
    await page.getByText('Finished after the reload.').waitFor();
    expect(await page.locator('.user-input').count()).toBe(1);
    await page.close();
  });

  it('shows a prompt started by a trigger live, and follows in a second tab', async () => {
    model.push(reply('Time to stretch!'));
    const page = await newConversation();
    const conversationId = new URL(page.url()).hash.slice(1);
    const second = await page.context().newPage();
    await second.goto(`${url}/#${conversationId}`); // the token is in this browser's storage already
    await second.getByRole('textbox', { name: 'Message' }).waitFor();
    await triggerService(server.platform.services).create(
      {
        name: 'Stretch',
        instruction: 'Remind the user to stretch.',
        schedule: { kind: 'once', at: new Date(Date.now() + 1500).toISOString(), timeZone: 'UTC' },
      },
      { userId: 'ada', conversationId },
    );
    for (const tab of [page, second]) {
      await tab.getByText('Started by “Stretch”').waitFor({ timeout: 20_000 });
      await tab.getByText('Time to stretch!').waitFor();
    }
    await page.screenshot({ path: `${shots}trigger.png` });
    await page.close();
    await second.close();
  });

  it('shows the MCP servers of the app, how each stands, and what went wrong', async () => {
    const everything = join(
      dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
      'dist/index.js',
    );
    const folder = await mkdtemp(join(tmpdir(), 'tessera-e2e-'));
    const servers = {
      everything: { command: process.execPath, args: [everything, 'stdio'] },
      broken: { command: join(folder, 'no-such-server') },
    };
    const other = await createServer({
      dataDir: folder,
      auth: { tokens: { [TOKEN]: 'ada' } },
      model,
      plugins: [mcpPlugin({ servers })],
      defaultPlugins: false,
      webDir: dist,
    });
    try {
      const page = await newConversation((await other.listen({ port: 0 })).url);
      const aside = page.getByRole('complementary', { name: 'MCP servers' });
      const connected = aside.getByRole('listitem').filter({ hasText: 'everything' });
      await connected.getByText('connected').waitFor();
      await connected.getByText(/stdio · \d+ tools · 4 prompts · resources/).waitFor();
      const broken = aside.getByRole('listitem').filter({ hasText: 'broken' });
      await broken.getByText('reconnecting').waitFor();
      await broken.getByText(/ENOENT/).waitFor();
      await page.screenshot({ path: `${shots}mcp-servers.png` });
      await page.close();
    } finally {
      await other.close({ graceMs: 50 });
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('shows the panels and the attach button of the plugins the server runs, and only those', async () => {
    const everything = await newConversation();
    const panel = everything.getByRole('complementary');
    for (const name of ['Triggers', 'Skills', 'Blueprints'])
      await panel.getByRole('heading', { name }).waitFor();
    expect(await everything.getByText('Attach files').count()).toBe(1);
    await everything.close();

    const triggersOnly = await mkdtemp(join(tmpdir(), 'tessera-e2e-'));
    const other = await createServer({
      dataDir: triggersOnly,
      auth: { tokens: { [TOKEN]: 'ada' } },
      model,
      plugins: [triggersPlugin()],
      defaultPlugins: false,
      webDir: dist,
    });
    try {
      const page = await newConversation((await other.listen({ port: 0 })).url);
      const aside = page.getByRole('complementary', { name: 'Triggers' });
      await aside.getByRole('heading', { name: 'Triggers' }).waitFor();
      expect(await aside.getByRole('heading').allTextContents()).toEqual(['Triggers']);
      expect(await page.getByText('Attach files').count()).toBe(0);
      await page.close();
    } finally {
      await other.close({ graceMs: 50 });
      await rm(triggersOnly, { recursive: true, force: true });
    }
  });

  it('follows the conversation again after the server restarts (a dropped connection)', async () => {
    model.push(reply('Before the restart.'));
    const page = await newConversation();
    const conversationId = new URL(page.url()).hash.slice(1);
    await send(page, 'hello');
    await page.getByText('Before the restart.').waitFor();
    // The answer may come by the send's own reload before the stream is up: only a stream that was up is
    // "Reconnecting…" once dropped (before, "Connecting…").
    await page.getByText('Connecting…').waitFor({ state: 'hidden' });

    const { port } = new URL(url);
    await server.close({ graceMs: 50 });
    await page.getByText('Reconnecting…').waitFor();
    ({ server, url } = await start({}, Number(port)));
    // Another client sends a message: only the page's event stream can bring the answer.
    model.push(reply('After the restart.'));
    const sent = await fetch(`${url}/api/conversations/${conversationId}/prompts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'sent from elsewhere' }),
    });
    expect(sent.status).toBe(202);
    await page.getByText('After the restart.').waitFor({ timeout: 20_000 });
    await page.getByText('sent from elsewhere').waitFor();
    expect(await page.getByText('Reconnecting…').count()).toBe(0);
    await page.close();
  });
});
