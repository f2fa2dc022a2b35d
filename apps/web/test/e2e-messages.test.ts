// @vitest-environment node
// End-to-end tests of the messages and the composer in Debian's Chromium, against the real server with a
// scripted model: images from other sites are not fetched, stop, copy, retry, regenerate, edit and resend, code
// copy, attachments dropped, pasted and removed, and the layout of cards, tables and charts at 390 px.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { audit } from './support/axe.ts';
import { launchChromium } from './support/chromium.ts';

const TOKEN = 'e2e-messages-token-0123456789';
const model = new ScriptedModel();
/** Screenshots of the message view; `SHOTS_DIR` puts them where a reviewer looks (not in the repo). */
const shots = process.env.SHOTS_DIR ?? join(tmpdir(), 'tessera-e2e-messages-shots');

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let browser: Browser;
let dataDir: string;
const dist = inject('webDir');
/** Another origin (another loopback address): every request it gets is one a model's text made the page send. */
let elsewhere: Server;
let elsewhereUrl: string;
const received: string[] = [];

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-e2e-messages-'));
  server = await createServer({
    dataDir,
    auth: { tokens: { [TOKEN]: 'ada' } },
    model,
    plugins: [demoPlugin],
    webDir: dist,
  });
  ({ url } = await server.listen({ port: 0 }));
  elsewhere = createHttpServer((request, response) => {
    received.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/svg+xml' });
    response.end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
  elsewhereUrl = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close({ graceMs: 50 });
  await new Promise((resolve) => elsewhere?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

type Options = { width?: number; height?: number; dark?: boolean; bypassCSP?: boolean };

/** A signed-in page in a new conversation; every URL it requests is recorded. */
async function open(options: Options = {}) {
  const { width = 1280, height = 860, dark = false, bypassCSP = false } = options;
  const context = await browser.newContext({
    viewport: { width, height },
    colorScheme: dark ? 'dark' : 'light',
    bypassCSP,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log('[pageerror]', e.message));
  await page.goto(`${url}/#token=${TOKEN}`);
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return { context, page, requests };
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

const conversationOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));
const promptsOf = (page: Page) => server.platform.conversations.prompts(conversationOf(page), 'ada');
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Files made in the page (a drag from the desktop and a paste carry File objects in a DataTransfer). */
async function dataTransfer(page: Page, files: { name: string; type: string; text: string }[]) {
  return page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([f.text], f.name, { type: f.type }));
    return transfer;
  }, files);
}

async function closeAll(context: BrowserContext) {
  await context.close();
}

describe('images in model and tool text', () => {
  it('no model, tool or widget text makes the page request another origin; "Load image" is the user\'s choice', async () => {
    received.length = 0;
    const leak = `${elsewhereUrl}/leak.png?d=SECRET`;
    model.push(
      // The city is in the tool's input, its result and the widgets it shows (a title of ≤ 60 characters).
      callTool('demo.weather', { city: `![w](${elsewhereUrl}/w.png?d=SECRET)` }),
      reply([`Here it is: ![x](${leak})`, '\n\nDone.']),
    );
    // The CSP bypassed: what is tested is the UI itself (the CSP is the second line, tested in e2e-security).
    const { context, page, requests } = await open({ bypassCSP: true });
    await send(page, 'show me');
    await page.locator('.state-completed').waitFor();
    await page.getByText('Done.').waitFor();
    await page.reload(); // the stored record, rendered from scratch
    await page.getByText('Done.').waitFor();
    await page.locator('.widget-chart').waitFor();
    const placeholder = page.locator('.blocked-image');
    expect(await placeholder.locator('.blocked-image-url').textContent()).toBe(leak);
    expect(requests.filter((r) => !r.startsWith(url))).toEqual([]);
    expect(received).toEqual([]);

    // The user chooses to load it: now (and only now) the page asks the other site.
    await placeholder.getByRole('button', { name: 'Load image' }).click();
    await page.locator(`img[src="${leak}"]`).waitFor();
    await expect.poll(() => received).toEqual(['/leak.png?d=SECRET']);
    await closeAll(context);
  });

  it('under the UI\'s CSP, "Load image" says why it cannot and offers the address as a link', async () => {
    received.length = 0;
    model.push(reply(`Look: ![x](${elsewhereUrl}/csp.png?d=SECRET)`));
    const { context, page, requests } = await open();
    await send(page, 'look');
    await page.getByRole('button', { name: 'Load image' }).click();
    await page.getByText('This page only shows images from this server.').waitFor();
    const link = page.getByRole('link', { name: 'Open it in a new tab' });
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(received).toEqual([]);
    expect(requests.filter((r) => !r.startsWith(url) && !r.startsWith(elsewhereUrl))).toEqual([]);
    await closeAll(context);
  });
});

describe('message actions', () => {
  it('stops a running answer from the composer, then retries it', async () => {
    model.push(reply('Never shown.', { delayMs: 60_000 }), reply('The second try worked.'));
    const { context, page } = await open();
    await send(page, 'a slow question');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.click();
    await page.locator('.state-cancelled').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor(); // the stop button is gone
    expect((await promptsOf(page))[0]?.state).toBe('cancelled');

    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('The second try worked.').waitFor();
    // The retry is a branch at that turn: the stopped try stays in the other one, out of this context.
    const all = await promptsOf(page);
    expect(all.map((p) => [p.input, p.state])).toEqual([['a slow question', 'completed']]);
    await page.getByRole('group', { name: 'Branch 2 of 2' }).waitFor();
    await closeAll(context);
  });

  it('stops a prompt waiting for approval: the call is closed as cancelled, not run', async () => {
    model.push(callTool('demo.delete_records', { names: ['alpha'] }));
    const { context, page } = await open();
    await send(page, 'delete alpha');
    await page.getByRole('region', { name: /Approval needed/ }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.state-cancelled').waitFor();
    await page.locator('.badge-cancelled').waitFor();
    expect(await page.getByRole('region', { name: /Approval needed/ }).count()).toBe(0);
    expect((await promptsOf(page))[0]?.state).toBe('cancelled');
    await closeAll(context);
  });

  it('copies a message, an answer and a code block; regenerates the last answer', async () => {
    const code = 'const answer: number = 42;\nconsole.log(answer);';
    model.push(reply(`Here:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThat is all.`), reply('Another answer.'));
    const { context, page } = await open();
    await send(page, 'show code');
    await page.locator('.state-completed').waitFor();
    const block = page.locator('.code-block');
    expect(await block.locator('.hljs-keyword').first().textContent()).toBe('const');
    await block.getByRole('button', { name: 'Copy code' }).click();
    await block.getByText('Copied').waitFor();
    expect(await clipboard(page)).toBe(`${code}\n`);

    await page.getByRole('button', { name: 'Copy message' }).click();
    expect(await clipboard(page)).toBe('show code');
    await page.getByRole('button', { name: 'Copy answer' }).click();
    expect(await clipboard(page)).toContain('That is all.');

    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page.getByText('Another answer.').waitFor();
    // A branch at that turn in place of the answer it replaces (e2e-branches.test.ts flips between them).
    expect((await promptsOf(page)).map((p) => p.input)).toEqual(['show code']);
    // Only the last answer can be regenerated.
    expect(await page.getByRole('button', { name: 'Regenerate' }).count()).toBe(1);
    await closeAll(context);
  });

  it('edits a sent message and sends it again', async () => {
    model.push(reply('About cats.'), reply('About dogs.'));
    const { context, page } = await open();
    await send(page, 'tell me about cats');
    await page.getByText('About cats.').waitFor();
    await page.locator('.state-completed').waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('textbox', { name: 'Edited text' }).fill('tell me about dogs');
    await page.screenshot({ path: join(shots, 'messages-edit.png') });
    await page.getByRole('button', { name: 'Save and send' }).click();
    await page.getByText('About dogs.').waitFor();
    // The edited message replaces the old one in a branch of its own: the model never reads about cats.
    expect((await promptsOf(page)).map((p) => p.input)).toEqual(['tell me about dogs']);
    expect(JSON.stringify(model.lastRequest?.messages)).not.toContain('cats');
    const lastUserText = model.lastRequest?.messages.findLast(
      (m) => m.type === 'message' && m.role === 'user',
    );
    expect(JSON.stringify(lastUserText)).toContain('tell me about dogs');
    await closeAll(context);
  });
});

describe('attachments', () => {
  it('drops and pastes files, removes one, sends files without text, and shows them in the message', async () => {
    model.push(reply('Got your files.'));
    const { context, page } = await open();
    const composer = page.locator('form.composer');
    const dropped = await dataTransfer(page, [
      { name: 'notes.txt', type: 'text/plain', text: 'hello notes' },
      { name: 'drop-me.txt', type: 'text/plain', text: 'not wanted' },
    ]);
    await composer.dispatchEvent('dragover', { dataTransfer: dropped });
    await page.getByText('Drop the files to attach them').waitFor();
    await composer.dispatchEvent('drop', { dataTransfer: dropped });
    const pasted = await dataTransfer(page, [
      { name: 'data.json', type: 'application/json', text: '{"a":1}' },
    ]);
    await page.getByRole('textbox', { name: 'Message' }).evaluate((field, clipboardData) => {
      field.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    }, pasted);
    const chips = page.getByRole('list', { name: 'Attachments to send' }).locator('.chip-name');
    await expect.poll(() => chips.allTextContents()).toEqual(['notes.txt', 'drop-me.txt', 'data.json']);
    await page.screenshot({ path: join(shots, 'messages-attachments-composer.png') });
    await page.getByRole('button', { name: 'Remove drop-me.txt' }).click();
    expect(await chips.allTextContents()).toEqual(['notes.txt', 'data.json']);

    // No text: the files are the message.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Got your files.').waitFor();
    const sent = page.locator('.user-input').getByRole('list', { name: 'Attachments' });
    await page.screenshot({ path: join(shots, 'messages-attachments-sent.png') });
    expect(await sent.locator('.sent-name').allTextContents()).toEqual(['notes.txt', 'data.json']);
    expect(await page.getByRole('list', { name: 'Attachments to send' }).count()).toBe(0);
    const [prompt] = await promptsOf(page);
    expect(prompt?.input).toBeUndefined();
    expect(prompt?.output.filter((o) => o.type === 'file').map((o) => (o as { name: string }).name)).toEqual([
      'notes.txt',
      'data.json',
    ]);
    // The download link gives back the bytes sent.
    const href = await sent.getByRole('link', { name: /notes\.txt/ }).getAttribute('href');
    expect(await page.evaluate(async (h) => (await fetch(h!)).text(), href)).toBe('hello notes');
    await closeAll(context);
  });
});

/** A reply with everything the message view shows: long JSON, an approval, a table, a chart, code, a blocked image. */
function scriptRichConversation() {
  const names = Array.from({ length: 6 }, (_, i) => `customer-record-with-a-rather-long-identifier-${i}`);
  model.push(
    callTool('demo.report', { products: 6 }),
    callTool('demo.weather', { city: 'Reykjavík' }),
    reply([
      'The report is ready. A snippet:\n\n',
      '```python\ndef total(rows):\n    return sum(r["revenue"] for r in rows)  # dollars\n```\n\n',
      `And an image from elsewhere: ![chart](${elsewhereUrl}/leak.png?d=SECRET)`,
    ]),
  );
  model.push(callTool('demo.delete_records', { names }));
  return names;
}

describe('layout of the message view', () => {
  for (const width of [1440, 390]) {
    for (const dark of [false, true]) {
      it(`at ${width} px, ${dark ? 'dark' : 'light'}: cards keep long JSON inside, headers sit over their columns, chart labels stay readable`, async () => {
        scriptRichConversation();
        const { context, page } = await open({ width, height: width === 390 ? 844 : 900, dark });
        await send(page, 'make a sales report, then delete those records');
        await page.locator('.state-completed').waitFor();
        await send(page, 'now delete the records');
        const card = page.getByRole('region', { name: /Approval needed/ });
        await card.waitFor();

        // Nothing runs off the side: the approval's arguments wrap inside the card, and the page never scrolls sideways.
        const input = card.locator('.approval-input');
        const [cardBox, inputBox] = [(await card.boundingBox())!, (await input.boundingBox())!];
        expect(inputBox.x + inputBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
        expect(await input.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        expect(await page.locator('.messages').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(
          true,
        );

        // A numeric column's header is right-aligned like its numbers: their right edges meet.
        const table = page.locator('.widget-table table');
        const edges = await table.evaluate((t) => {
          const header = t.querySelectorAll('th')[1];
          const cell = t.querySelector('tbody tr')?.querySelectorAll('td')[1];
          const text = (el: Element | null | undefined) => {
            const range = document.createRange();
            range.selectNodeContents(el!);
            return range.getBoundingClientRect().right;
          };
          return { header: text(header), cell: text(cell) };
        });
        expect(Math.abs(edges.header - edges.cell)).toBeLessThan(1.5);

        // Chart labels are drawn at 11 px on the page (the SVG is not scaled down).
        const tick = page.locator('.widget-chart .tick').first();
        const tickHeight = await tick.evaluate(
          (el) => (el as SVGGraphicsElement).getBoundingClientRect().height,
        );
        expect(tickHeight).toBeGreaterThanOrEqual(10);

        await page.locator('.code-block .hljs-keyword').first().waitFor();
        // Code colors, the blocked image, the actions, the cards: readable and named in both themes.
        await audit(page);
        await page.locator('.messages').evaluate((el) => {
          el.scrollTop = 0;
        });
        await page.screenshot({ path: join(shots, `messages-${width}-${dark ? 'dark' : 'light'}.png`) });
        await page.locator('.widget-chart').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.screenshot({
          path: join(shots, `messages-${width}-${dark ? 'dark' : 'light'}-chart.png`),
        });
        await page.locator('.code-block').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.screenshot({ path: join(shots, `messages-${width}-${dark ? 'dark' : 'light'}-code.png`) });
        await page.locator('.messages').evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        await page.screenshot({ path: join(shots, `messages-${width}-${dark ? 'dark' : 'light'}-end.png`) });
        // The model is told of the rejection and answers (the script's turn for it, so no later test's is taken).
        model.push(reply('Left them alone.'));
        await card.getByRole('button', { name: 'Reject' }).click();
        await page.getByText('Left them alone.').waitFor();
        await page.locator('.badge-rejected').waitFor();
        expect(await page.locator('.badge-error').count()).toBe(0);
        // The rejected call's card, opened: its long input wraps inside it too.
        const rejected = page.locator('.tool-card.status-rejected');
        await rejected.getByRole('button', { expanded: false }).click();
        const detail = rejected.locator('.json-block').first();
        expect(await detail.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        await rejected.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.screenshot({
          path: join(shots, `messages-${width}-${dark ? 'dark' : 'light'}-rejected.png`),
        });
        await closeAll(context);
      });
    }
  }
});
