// @vitest-environment node
// End-to-end tests of the shell (layout, drawer, side panel toggle, delete with undo, not-found, search,
// dark mode, settings) in Debian's Chromium against the real server with a scripted model.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { audit } from './support/axe.ts';
import { launchChromium } from './support/chromium.ts';

const TOKEN = 'e2e-shell-token-0123456789abcdef';
/** Screenshots of each layout and theme; `SHOTS_DIR` puts them elsewhere (e.g. for a review). */
const shots = process.env.SHOTS_DIR ?? new URL('./screenshots/', import.meta.url).pathname;

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let browser: Browser;
let dataDir: string;
const dist = inject('webDir');
const model = new ScriptedModel();

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-e2e-shell-'));
  server = await createServer({
    dataDir,
    auth: { tokens: { [TOKEN]: 'ada' } },
    model,
    plugins: [demoPlugin],
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

/** `audit`: the page lets the test inject axe-core (the UI's CSP forbids inline scripts otherwise). */
type Options = { width?: number; height?: number; dark?: boolean; hash?: string; audit?: boolean };

/** A signed-in page at a viewport size, in the light or dark system theme. */
async function open(options: Options = {}): Promise<Page> {
  const { width = 1440, height = 900, dark = false, hash = '', audit = false } = options;
  const context = await browser.newContext({
    viewport: { width, height },
    colorScheme: dark ? 'dark' : 'light',
    bypassCSP: audit,
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') console.log('[browser]', m.text());
  });
  page.on('pageerror', (e) => console.log('[pageerror]', e.message));
  await page.goto(`${url}/?token=${TOKEN}${hash}`);
  await page.locator('.topbar').waitFor();
  return page;
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers },
  });

async function createConversation(title: string): Promise<string> {
  const response = await api('/api/conversations', { method: 'POST', body: JSON.stringify({ title }) });
  return ((await response.json()) as { id: string }).id;
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

async function newConversation(page: Page) {
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
}

const distanceFromEnd = (page: Page) =>
  page.locator('.messages').evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));

describe('the shell', () => {
  it('at 390 px: the conversation list is a drawer behind the menu button; the composer sits at the bottom', async () => {
    const page = await open({ width: 390, height: 844 });
    await newConversation(page);
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    const menu = page.getByRole('button', { name: 'Conversations' });
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    // The composer reaches the bottom of the screen: no empty band under it.
    const composer = (await page.locator('.composer').boundingBox())!;
    expect(Math.round(composer.y + composer.height)).toBe(844);

    await menu.click();
    await nav.waitFor({ state: 'visible' });
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Conversations',
    );

    // Choosing a conversation closes the drawer and opens it.
    const other = await createConversation('Picked from the drawer');
    await page.reload();
    await menu.click();
    await nav.getByRole('button', { name: 'Picked from the drawer' }).click();
    await nav.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).hash).toBe(`#${other}`);
    await page.getByRole('heading', { level: 1, name: 'Picked from the drawer' }).waitFor();
    await page.close();
  });

  it('at 1024 px: the side panel opens and closes with the toggle in the top bar', async () => {
    const id = await createConversation('Panel at 1024');
    const page = await open({ width: 1024, height: 768, hash: `#${id}`, audit: true });
    const toggle = page.getByRole('button', { name: /triggers, skills and blueprints/i });
    const panel = page.getByRole('complementary', { name: /Triggers/ });
    await toggle.waitFor();
    expect(await panel.isVisible()).toBe(false);
    await toggle.click();
    await panel.getByRole('heading', { name: 'Skills' }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await audit(page);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    // Wide, it is a column that shows by default (and the toggle hides it).
    await page.setViewportSize({ width: 1440, height: 900 });
    await panel.waitFor({ state: 'visible' });
    await toggle.click();
    await panel.waitFor({ state: 'hidden' });
    await page.close();
  });

  it('deletes a conversation after a confirmation, with an undo, and the address forgets it', async () => {
    const id = await createConversation('To be deleted');
    const page = await open({ hash: `#${id}` });
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    const item = nav.getByRole('listitem').filter({ hasText: 'To be deleted' });
    await item.getByRole('button', { name: 'Delete conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this conversation?' });
    await dialog.getByText(/files in it, and its triggers/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await item.count()).toBe(1);

    await item.getByRole('button', { name: 'Delete conversation' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await item.waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('');
    await page.getByText('Deleted “To be deleted”.').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await item.waitFor();
    expect((await api(`/api/conversations/${id}`)).status).toBe(200);
    expect(new URL(page.url()).hash).toBe(`#${id}`); // back where the user was
    expect(await page.title()).toBe('To be deleted · Tessera');

    // Deleted for real once the undo time is over.
    await item.getByRole('button', { name: 'Delete conversation' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted “To be deleted”.').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(async () => (await api(`/api/conversations/${id}`)).status).toBe(404);

    // Leaving the page inside the undo time deletes at once: the conversation does not come back.
    const other = await createConversation('Deleted, then the page is left');
    await page.reload();
    const second = nav.getByRole('listitem').filter({ hasText: 'Deleted, then the page is left' });
    await second.hover();
    await second.getByRole('button', { name: 'Delete conversation' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    await page.goto('about:blank');
    await expect.poll(async () => (await api(`/api/conversations/${other}`)).status).toBe(404);
    await page.close();
  });

  it('an address naming no conversation shows "not found" with a way back, not an endless reconnect', async () => {
    const page = await open({ hash: '#conv_doesNotExist123' });
    await page.getByRole('heading', { name: 'Conversation not found' }).waitFor();
    expect(await page.getByText(/Connecting…|Reconnecting…/).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Back to start' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.close();
  });

  it('searches the conversation list and groups it by date; a new conversation has the cursor in the composer', async () => {
    await createConversation('Quarterly café budget');
    await createConversation('Holiday plans');
    const page = await open();
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('heading', { name: 'Today' }).waitFor();
    const search = nav.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('cafe budget');
    await nav.getByRole('button', { name: 'Quarterly café budget' }).waitFor();
    expect(await nav.getByRole('button', { name: 'Holiday plans' }).count()).toBe(0);
    await search.fill('no such words');
    await nav.getByText('No conversation matches “no such words”.').waitFor();
    await search.press('Escape');
    await nav.getByRole('button', { name: 'Holiday plans' }).waitFor();

    await newConversation(page);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await expect.poll(focused).toBe('Message');

    // The keyboard: Ctrl+K searches, Ctrl+Shift+O starts another conversation.
    await page.keyboard.press('Control+K');
    expect(await focused()).toBe('Search conversations');
    await page.keyboard.press('Control+Shift+O');
    await expect.poll(focused).toBe('Message');
    await page.close();
  });

  it('follows the system theme, and the toggle switches and remembers it', async () => {
    const page = await open({ dark: true });
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const dark = await background();
    expect(dark).toBe('rgb(15, 17, 23)');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await background()).toBe('rgb(247, 247, 249)');
    await page.reload();
    await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();
    expect(await background()).toBe('rgb(247, 247, 249)');

    // Settings: back to following the system.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: /System/ }).check();
    expect(await background()).toBe(dark);
    await page.close();
  });

  it('keeps the view at the end while a reply with files and widgets grows', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
    model.push(callTool('demo.report', { products: 12 }), reply(long, { delayMs: 5 }));
    const page = await open({ width: 1024, height: 700 });
    await newConversation(page);
    await send(page, 'make a sales report');
    await page.locator('.state-completed').waitFor();
    await page.getByText('Line 40 of a long answer.').waitFor();
    await expect.poll(() => distanceFromEnd(page)).toBeLessThanOrEqual(1);
    // Scrolled up, the reader stays where they are, and a button brings them back.
    await page.locator('.messages').evaluate((el) => el.scrollTo({ top: 0 }));
    await page.getByRole('button', { name: '↓ Latest' }).click();
    await expect.poll(() => distanceFromEnd(page)).toBeLessThanOrEqual(1);
    await page.close();
  });

  it('passes the accessibility audit in dark mode, at 1440, 1024 and 390 px (drawer open)', async () => {
    model.push(callTool('demo.report', { products: 3 }), reply('Here is the **report**.'));
    const page = await open({ dark: true, audit: true });
    await newConversation(page);
    await send(page, 'make a sales report');
    await page.getByText('Here is the').waitFor();
    await audit(page);
    await page.setViewportSize({ width: 1024, height: 768 });
    await audit(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'visible' });
    await audit(page);
    await page.close();
  });

  it("side panel: activates a skill, shows a blueprint's steps and deletes it after a confirmation", async () => {
    model.push(
      callTool('blueprints.save', {
        title: 'Water the plants',
        summary: 'Keep the office plants alive.',
        steps: '1. Fill the can\n2. Water each plant',
        tags: [],
      }),
      reply('Saved.'),
    );
    // A stored conversation: the side panel is a conversation's (a new one has none until its first message).
    const page = await open({ hash: `#${await createConversation('Skills and blueprints')}` });
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    const panel = page.getByRole('complementary', { name: /Triggers/ });
    const skill = panel.getByRole('listitem').filter({ hasText: 'code-review' });
    await skill.getByRole('button', { name: 'Activate skill code-review' }).click();
    await skill.getByText('active', { exact: true }).waitFor();

    await send(page, 'save this as a blueprint');
    await page
      .getByRole('region', { name: /Approval needed/ })
      .getByRole('button', { name: 'Approve' })
      .click();
    await page.getByText('Saved.').waitFor();
    const blueprint = panel.getByRole('listitem').filter({ hasText: 'Water the plants' });
    await blueprint.getByText('Steps').click();
    await blueprint.getByText('2. Water each plant').waitFor();
    await blueprint.getByRole('button', { name: 'Delete blueprint Water the plants' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this blueprint?' });
    await dialog.getByRole('button', { name: 'Delete blueprint' }).click();
    await blueprint.waitFor({ state: 'detached' });
    const left = (await (await api('/api/blueprints')).json()) as { items: { title: string }[] };
    expect(left.items.map((b) => b.title)).not.toContain('Water the plants');
    // Shared blueprints are not the user's to delete.
    expect(await panel.getByRole('button', { name: /Delete blueprint/ }).count()).toBe(0);
    await page.close();
  });

  it('settings: the theme, the model class and instructions; a new message is sent with the chosen class and read with the instructions', async () => {
    const page = await open({ hash: '#settings' });
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('radio', { name: /High/ }).check();
    await page.reload();
    expect(await page.getByRole('radio', { name: /High/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /Dark/ }).check();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(shots, 'shell-settings-dark.png') });

    // Standing instructions: saved by the server, read by the model in the next prompt.
    const instructions = page.getByRole('textbox', { name: 'Instructions for the model' });
    await instructions.fill('Answer like a pirate.');
    await page.getByRole('button', { name: 'Save instructions' }).click();
    await page.getByText('Saved: they apply from your next message.').waitFor();
    await page.reload();
    await expect.poll(() => instructions.inputValue()).toBe('Answer like a pirate.');

    let modelInstructions = '';
    model.push((request) => {
      modelInstructions = request.instructions;
      return reply('Thinking hard.');
    });
    await newConversation(page);
    await send(page, 'a hard question');
    await page.getByText('Thinking hard.').waitFor();
    expect(modelInstructions).toContain('Answer like a pirate.');
    const id = decodeURIComponent(new URL(page.url()).hash.slice(1));
    const detail = (await (await api(`/api/conversations/${id}`)).json()) as { prompts: { model: string }[] };
    expect(detail.prompts[0]?.model).toBe('high');
    await page.close();
  });

  it('takes screenshots of each layout in both themes', async () => {
    model.push(
      callTool('demo.report', { products: 6 }),
      reply('Here is the **report**: six products, with the CSV attached.'),
    );
    const id = await createConversation('Sales report');
    const seed = await open({ hash: `#${id}` });
    await send(seed, 'make a sales report');
    await seed.locator('.state-completed').waitFor();
    await seed.close();
    for (const dark of [false, true]) {
      for (const [width, height] of [
        [1440, 900],
        [1024, 768],
        [390, 844],
      ] as const) {
        const page = await open({ width, height, dark, hash: `#${id}` });
        await page.locator('.state-completed').waitFor();
        // The answer as Markdown, not the plain text shown until the lazily loaded renderer arrives.
        await page.locator('.text-output strong', { hasText: 'report' }).waitFor();
        const name = `${width}-${dark ? 'dark' : 'light'}`;
        await page.screenshot({ path: join(shots, `shell-${name}.png`) });
        if (width === 390) {
          await page.getByRole('button', { name: 'Conversations' }).click();
          await page.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'visible' });
          await page.waitForTimeout(300); // the drawer's slide-in, for the picture only
          await page.screenshot({ path: join(shots, `shell-${name}-drawer.png`) });
        }
        if (width === 1024) {
          await page.getByRole('button', { name: /triggers, skills and blueprints/i }).click();
          await page.getByRole('complementary', { name: /Triggers/ }).waitFor();
          await page.screenshot({ path: join(shots, `shell-${name}-panel.png`) });
        }
        await page.close();
      }
    }
    // The states around a delete, at the phone size.
    const page = await open({ width: 390, height: 844, hash: '#conv_deletedLongAgo' });
    await page.getByRole('heading', { name: 'Conversation not found' }).waitFor();
    await page.screenshot({ path: join(shots, 'shell-390-light-not-found.png') });
    await page.getByRole('button', { name: 'Conversations' }).click();
    const item = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Sales report', exact: true }) });
    await item.hover(); // a mouse shows the actions of a conversation on hover
    await item.getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').waitFor();
    await page.screenshot({ path: join(shots, 'shell-390-light-confirm.png') });
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    await page.screenshot({ path: join(shots, 'shell-390-light-undo.png') });
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.close();
  });
});
