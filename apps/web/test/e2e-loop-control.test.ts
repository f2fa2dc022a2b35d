// @vitest-environment node
// End-to-end tests of loop control in Debian's Chromium, against the real server with a scripted model:
// writing while the assistant works (steer it, or queue a follow-up, and remove a queued one), editing a
// tool call's arguments before approving it, and deciding a pause.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelRequest } from '@tessera/core';
import { createServer, demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './support/chromium.ts';

const TOKEN = 'e2e-loop-control-token-0123456789';
const model = new ScriptedModel();
/** Screenshots of the cards and the composer; `SHOTS_DIR` puts them where a reviewer looks (not in the repo). */
const shots = process.env.SHOTS_DIR ?? join(tmpdir(), 'tessera-e2e-loop-shots');

let server: Awaited<ReturnType<typeof createServer>>;
let url: string;
let browser: Browser;
let dataDir: string;
/** The UI, built once per test run (test/support/build-ui.ts). */
const dist = inject('webDir');

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-e2e-loop-'));
  server = await createServer({
    dataDir,
    auth: { tokens: { [TOKEN]: 'ada' } },
    model,
    plugins: [demoPlugin],
    webDir: dist,
  });
  ({ url } = await server.listen({ port: 0 }));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close({ graceMs: 50 });
  await rm(dataDir, { recursive: true, force: true });
});

async function open(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log('[pageerror]', e.message));
  await page.goto(`${url}/#token=${TOKEN}`);
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return page;
}

/** Types a message and sends it; while the assistant works, `mode` picks steering or a follow-up. */
async function send(page: Page, text: string, mode?: 'Steer' | 'Queue') {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  if (mode) await page.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

const conversationOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));
const promptsOf = (page: Page) => server.platform.conversations.prompts(conversationOf(page), 'ada');

/** The last user message the model was sent, as text. */
const lastUserText = (request: ModelRequest) => {
  const last = request.messages.findLast((m) => m.type === 'message' && m.role === 'user');
  return last?.type === 'message' ? JSON.stringify(last.content) : '';
};

describe('loop control in the web UI', () => {
  it('steers the working assistant: the composer stays usable, the model reads the message next', async () => {
    model.push(callTool('demo.delete_records', { names: ['alpha'] }), (request) =>
      reply(`Deleted alpha; you said ${lastUserText(request)}`),
    );
    const page = await open();
    await send(page, 'delete records alpha');
    const card = page.getByRole('region', { name: /Approval needed/ });
    await card.waitFor();
    // Busy, yet writable: the choice between steering and queueing is on screen.
    expect(await page.getByRole('textbox', { name: 'Message' }).isDisabled()).toBe(false);
    await send(page, 'keep a backup first', 'Steer');
    const waiting = page.getByRole('region', { name: 'Waiting messages' });
    await waiting.getByText('keep a backup first').waitFor();

    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/Deleted alpha; you said .*keep a backup first/).waitFor();
    await page.locator('.steering-note').getByText('keep a backup first').waitFor();
    await waiting.waitFor({ state: 'detached' });
    expect((await promptsOf(page)).map((p) => p.input)).toEqual(['delete records alpha']);
    await page.close();
  });

  it('queues follow-ups while it works, removes one, and runs the other next', async () => {
    model.push(callTool('demo.delete_records', { names: ['beta'] }), reply('Deleted beta.'), (request) =>
      reply(`Follow-up: ${lastUserText(request)}`),
    );
    const page = await open();
    await send(page, 'delete records beta');
    const card = page.getByRole('region', { name: /Approval needed/ });
    await card.waitFor();
    await send(page, 'first follow-up', 'Queue');
    await send(page, 'second follow-up', 'Queue');
    const waiting = page.getByRole('region', { name: 'Waiting messages' });
    await waiting.getByText('second follow-up').waitFor();
    expect(await waiting.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('first follow-up'),
      expect.stringContaining('second follow-up'),
    ]);

    await page.screenshot({ path: join(shots, 'queued-follow-ups.png') });
    await waiting.getByRole('button', { name: /Remove “first follow-up/ }).click();
    await waiting.getByText('first follow-up').waitFor({ state: 'detached' });
    expect(await waiting.getByRole('listitem').count()).toBe(1);

    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Deleted beta.').waitFor();
    await page.getByText(/Follow-up: .*second follow-up/).waitFor();
    await waiting.waitFor({ state: 'detached' });
    expect((await promptsOf(page)).map((p) => p.input)).toEqual(['delete records beta', 'second follow-up']);
    await page.close();
  });

  it('edits the arguments before approving: an invalid edit is explained and the call still waits', async () => {
    model.push(callTool('demo.transfer', { amount: 500, to: 'Ada' }), (request) => {
      const call = request.messages.findLast((m) => m.type === 'function_call');
      return reply(`Transferred with ${call?.type === 'function_call' ? call.arguments : '?'}`);
    });
    const page = await open();
    await send(page, 'transfer $500 to Ada');
    const card = page.getByRole('region', { name: /Approval needed/ });
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    // demo.transfer's arguments are a flat object: a form from its JSON Schema.
    const amount = card.getByRole('spinbutton', { name: /amount/ });
    expect(await amount.inputValue()).toBe('500');
    expect(await card.getByRole('textbox', { name: /^to/ }).inputValue()).toBe('Ada');
    await page.screenshot({ path: join(shots, 'approval-edit-form.png') });
    await amount.fill('-5');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card
      .getByRole('alert')
      .getByText(/amount/)
      .waitFor();
    expect((await promptsOf(page))[0]?.state).toBe('waiting_for_approval');

    await amount.fill('50');
    await card.getByRole('button', { name: 'Approve' }).click();
    // The model reads the approved arguments (their key order is the schema's business).
    await page.getByText(/Transferred with \{.*"amount":50/).waitFor();
    const [prompt] = await promptsOf(page);
    expect(prompt?.output[0]).toMatchObject({
      input: { amount: 500, to: 'Ada' },
      editedInput: { amount: 50, to: 'Ada' },
      result: { type: 'success' },
    });
    // The call's card shows the arguments it ran with, marked as edited, and both on opening it.
    const summary = page.locator('.tool-summary');
    expect(await summary.locator('.tool-args').textContent()).toContain('"amount":50');
    await summary.getByText('edited').waitFor();
    await summary.click();
    await page.getByText('Input as edited before approval').waitFor();
    await page.close();
  });

  it('edits arguments that are not a flat object as JSON', async () => {
    model.push(callTool('demo.delete_records', { names: ['gamma', 'delta'] }), reply('Deleted gamma only.'));
    const page = await open();
    await send(page, 'delete records gamma and delta');
    const card = page.getByRole('region', { name: /Approval needed/ });
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    const json = card.getByRole('textbox', { name: 'Arguments (JSON)' });
    await json.fill('{"names": ["gamma"');
    await card.getByText(/Not valid JSON/).waitFor();
    await page.screenshot({ path: join(shots, 'approval-edit-json.png') });
    expect(await card.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await json.fill('{"names": ["gamma"]}');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Deleted gamma only.').waitFor();
    expect((await promptsOf(page))[0]?.output[0]).toMatchObject({ editedInput: { names: ['gamma'] } });
    await page.close();
  });

  it('asks whether to go on when the assistant repeats itself; Continue resumes it', async () => {
    const weather = () => callTool('demo.weather', { city: 'Paris' });
    model.push(weather(), weather(), weather(), reply('Paris stays mild.'));
    const page = await open();
    await send(page, 'weather in Paris, again and again');
    const pause = page.getByRole('region', { name: /repeating itself/ });
    await pause.waitFor();
    await page.getByText('Paused: waiting for your decision').waitFor();
    await page.screenshot({ path: join(shots, 'pause-card.png') });
    await pause.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Paris stays mild.').waitFor();
    await page.getByText(/you chose to continue/).waitFor();
    await page.close();
  });
});
