// @vitest-environment node
// End-to-end tests of loop control in Debian's Chromium, against the real server with a scripted model:
// writing while the assistant works (steer it, or queue a follow-up, and remove a queued one), editing a
// tool call's arguments before approving it, and deciding a pause.
import { join } from 'node:path';
import type { ModelRequest } from '@tessera/core';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-loop-control-token-0123456789';
const model = new ScriptedModel();

// A round budget the other tests stay within (at most 4 model calls a prompt), and the budget test reaches.
const e2e = e2eServer('loop-control', TOKEN, { model, budgets: { maxRounds: 5 } });

const open = () => e2e.open({ width: 1280, height: 860 });

/** Types a message and sends it; while the assistant works, `mode` picks steering or a follow-up. */
async function send(page: Page, text: string, mode?: 'Steer' | 'Queue') {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  if (mode) await page.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

const conversationOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));
const promptsOf = (page: Page) => e2e.server.platform.conversations.prompts(conversationOf(page), 'ada');

/** The last user message the model was sent, as text. */
const lastUserText = (request: ModelRequest) => {
  const last = request.messages.findLast((m) => m.type === 'message' && m.role === 'user');
  return last?.type === 'message' ? JSON.stringify(last.content) : '';
};

describe('loop control in the web UI', () => {
  // One model for the file: a test that failed halfway leaves no turns for the next to play.
  beforeEach(() => {
    model.clear();
  });

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

    await page.screenshot({ path: join(e2e.shots, 'queued-follow-ups.png') });
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
    await page.screenshot({ path: join(e2e.shots, 'approval-edit-form.png') });
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
    await page.screenshot({ path: join(e2e.shots, 'approval-edit-json.png') });
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
    await page.screenshot({ path: join(e2e.shots, 'pause-card.png') });
    await pause.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Paris stays mild.').waitFor();
    await page.getByText(/you chose to continue/).waitFor();
    await page.close();
  });

  it('offers to continue with a larger budget when the assistant reaches one, and goes on from there', async () => {
    const cities = ['Paris', 'Rome', 'Oslo', 'Lima', 'Kyiv'];
    model.push(...cities.map((city) => callTool('demo.weather', { city })), reply('Five cities checked.'));
    const page = await open();
    await send(page, 'weather in five cities');
    const pause = page.getByRole('region', { name: 'The assistant reached its budget' });
    await pause.getByText(/from 5 model calls to 10 model calls/).waitFor();
    await page.screenshot({ path: join(e2e.shots, 'budget-pause-card.png') });
    await pause.getByRole('button', { name: 'Continue with a larger budget' }).click();
    await page.getByText('Five cities checked.').waitFor();
    await page.getByText(/you chose to continue with 10 model calls/).waitFor();
    const [prompt] = await promptsOf(page);
    expect(prompt?.output.find((o) => o.type === 'pause')).toMatchObject({ raised: { maxRounds: 10 } });
    await page.close();
  });
});
