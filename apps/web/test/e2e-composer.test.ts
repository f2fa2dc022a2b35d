// @vitest-environment node
// End-to-end tests of the composer in Debian's Chromium, against the real server (the demo model): a file over
// the server's upload limit is refused when it is chosen, never a chip; "New conversation" stores nothing until
// its first message; an empty conversation's suggestions put their text in the message box.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './support/axe.ts';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-composer-token-0123456789';
/** Small enough that a test file is over it; the UI reads it from GET /api/me. */
const MAX_UPLOAD_BYTES = 2048;

/** Short enough that a long message is refused (a 413), as a send that fails. */
const MAX_INPUT_CHARS = 500;

const e2e = e2eServer('composer', TOKEN, {
  limits: { maxUploadBytes: MAX_UPLOAD_BYTES, maxInputChars: MAX_INPUT_CHARS },
});

/** The user's conversations, as the server has them. */
const stored = async () => {
  const response = await fetch(`${e2e.url}/api/conversations`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await response.json()) as { items: { id: string }[] }).items;
};
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

const file = (name: string, bytes: number) => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.alloc(bytes, 'a'),
});

describe('the composer', () => {
  it('refuses a file over the upload limit when it is chosen, naming it and the limit; the others are sent', async () => {
    const page = await e2e.open({ width: 1280, height: 860 });
    const chooser = page.locator('form.composer input[type="file"]');
    await chooser.setInputFiles([file('small.txt', 100), file('huge-report.txt', 5000)]);
    const alert = page.locator('form.composer').getByRole('alert');
    await alert
      .getByText("huge-report.txt (4.9 KB) is over the server's limit of 2.0 KB for uploads.")
      .waitFor();
    const chips = page.getByRole('list', { name: 'Attachments to send' }).locator('.chip-name');
    expect(await chips.allTextContents()).toEqual(['small.txt']);
    await page.screenshot({ path: join(e2e.shots, 'composer-file-refused.png') });

    // Together over the limit: the one that would take them over is refused too.
    await chooser.setInputFiles([file('half.txt', 1990)]);
    await alert
      .getByText(/^half\.txt \(1\.9 KB\) would take the files to send over the server's limit/)
      .waitFor();
    expect(await chips.allTextContents()).toEqual(['small.txt']);

    // A file that fits is attached, and what was attached is sent.
    await chooser.setInputFiles([file('notes.txt', 200)]);
    await expect.poll(() => chips.allTextContents()).toEqual(['small.txt', 'notes.txt']);
    expect(await alert.count()).toBe(0);
    await page.getByRole('textbox', { name: 'Message' }).fill('here are my files');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = page.locator('.user-input').getByRole('list', { name: 'Attachments' });
    await sent.getByText('notes.txt').waitFor();
    expect(await sent.locator('.sent-name').allTextContents()).toEqual(['small.txt', 'notes.txt']);
    await page.context().close();
  });
});

describe('a new conversation', () => {
  it('is an empty composer, stored only with its first message (two clicks make none)', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${e2e.url}/#token=${TOKEN}`);
    const before = (await stored()).length;
    const create = page.getByRole('button', { name: 'New conversation' }).first();
    await create.click();
    await create.click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.waitFor();
    await expect.poll(() => focused(page)).toBe('Message');
    await page.getByRole('heading', { name: 'Welcome, ada' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    expect((await stored()).length).toBe(before);
    expect(posts.filter((path) => path.startsWith('/api/conversations'))).toEqual([]);
    await page.screenshot({ path: join(e2e.shots, 'composer-new-conversation.png') });

    // A first message the server refuses leaves no conversation behind, and stays in the box.
    const long = 'word '.repeat(MAX_INPUT_CHARS / 4);
    await box.fill(long);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('form.composer').getByRole('alert').waitFor();
    await expect.poll(async () => (await stored()).length).toBe(before);
    expect(await box.inputValue()).toBe(long);
    expect(new URL(page.url()).hash).toBe('');

    // The first message makes the conversation, and opens it.
    await box.fill('weather in Paris');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Paris (made-up demo data)').first().waitFor();
    await expect.poll(async () => (await stored()).length).toBe(before + 1);
    const id = decodeURIComponent(new URL(page.url()).hash.slice(1));
    expect((await stored()).map((c) => c.id)).toContain(id);
    const prompts = await e2e.server.platform.conversations.prompts(id, 'ada');
    expect(prompts.map((p) => p.input)).toEqual(['weather in Paris']);
    await context.close();
  });
});

describe('suggestions in an empty conversation', () => {
  it('are buttons that put their text in the message box, to send', async () => {
    const page = await e2e.open({ width: 1280, height: 860 });
    const suggestions = page.getByRole('list', { name: 'Try one of these' });
    await suggestions.getByRole('button', { name: 'make a sales report' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    expect(await box.inputValue()).toBe('make a sales report');
    expect(await focused(page)).toBe('Message');
    await page.screenshot({ path: join(e2e.shots, 'composer-suggestions.png') });
    await audit(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.state-completed').waitFor();
    // Once the conversation has a message, it offers none.
    await suggestions.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
