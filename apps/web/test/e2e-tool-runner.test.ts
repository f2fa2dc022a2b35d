// @vitest-environment node
// End-to-end tests of the tool runner in Debian's Chromium, against the real server: a plugin author's plugin,
// and a model that is never asked. Pick a tool, fill its form (from its JSON Schema), run it, see its outputs
// in the conversation as the chat shows them; a tool that asks for approval waits for the approval card.
import { join } from 'node:path';
import { ScriptedModel } from '@tessera/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './support/axe.ts';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-tool-runner-token-0123456789';
/** No turns: a model call would fail the prompt. The tool runner never makes one. */
const model = new ScriptedModel();

const e2e = e2eServer('tool-runner', TOKEN, { model });

const open = (width: number, height: number, colorScheme: 'light' | 'dark' = 'light') =>
  e2e.open({ width, height }, colorScheme);

const conversationOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));
const promptsOf = (page: Page) => e2e.server.platform.conversations.prompts(conversationOf(page), 'ada');

describe('the tool runner in the web UI', () => {
  it('runs a tool from its form: the outputs show in the conversation, and no model is asked', async () => {
    const page = await open(1440, 900);
    await page.getByRole('button', { name: 'Run a tool' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run a tool' });
    await dialog.getByRole('button', { name: /trigger\.create/ }).waitFor(); // the built-in plugins' tools too
    await dialog.getByRole('searchbox', { name: 'Filter the tools' }).fill('weather');
    expect(await dialog.getByRole('list', { name: 'Tools' }).getByRole('listitem').count()).toBe(1);
    await dialog.getByRole('button', { name: /demo\.weather/ }).click();
    const form = dialog.getByRole('form', { name: 'demo.weather' });
    await form.getByText(/Made-up weather for a city/).waitFor();
    // Run without the city: the server's refusal names what is missing, and the form stays.
    await form.getByRole('button', { name: 'Run' }).click();
    await form.getByRole('alert').getByText(/city/).waitFor();

    await form.getByRole('textbox', { name: 'city' }).fill('Paris');
    await page.screenshot({ path: join(e2e.shots, 'tool-runner-1440.png') });
    await audit(page);
    await form.getByRole('button', { name: 'Run' }).click();
    await dialog.waitFor({ state: 'detached' });

    // As the chat shows a call: the tool's card and its widgets, under who ran it.
    await page.locator('.tool-run-input').getByText('demo.weather').waitFor();
    await page.getByText('Paris (made-up demo data)').waitFor();
    await page.getByText('Done', { exact: true }).waitFor();
    await page.screenshot({ path: join(e2e.shots, 'tool-run-outputs-1440.png') });
    const [prompt] = await promptsOf(page);
    expect(prompt).toMatchObject({ state: 'completed', metadata: { toolRun: true } });
    expect(prompt?.output[0]).toMatchObject({
      toolId: 'demo.weather',
      input: { city: 'Paris' },
      result: { type: 'success', output: { city: 'Paris', demo: true } },
    });
    expect(model.requests).toEqual([]);

    // Opened again, it chooses the same tool with the arguments it ran with.
    await page.getByRole('button', { name: 'Run a tool' }).click();
    const again = dialog.getByRole('form', { name: 'demo.weather' });
    expect(await again.getByRole('textbox', { name: 'city' }).inputValue()).toBe('Paris');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.close();
  });

  it('runs a tool that asks for approval: the approval card decides, as for the model’s calls', async () => {
    const page = await open(1440, 900);
    await page.getByRole('button', { name: 'Run a tool' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run a tool' });
    await dialog.getByRole('button', { name: /demo\.transfer/ }).click();
    const form = dialog.getByRole('form', { name: 'demo.transfer' });
    await form.getByText('may ask for approval').waitFor();
    await form.getByRole('spinbutton', { name: 'amount' }).fill('500');
    await form.getByRole('textbox', { name: 'to' }).fill('Ada');
    await form.getByRole('button', { name: 'Run' }).click();

    const card = page.getByRole('region', { name: /Approval needed/ });
    await card.waitFor();
    // The conversation is busy: the runner waits, as sending does.
    expect(await page.getByRole('button', { name: 'Run a tool' }).isDisabled()).toBe(true);
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Done', { exact: true }).waitFor();
    const [prompt] = await promptsOf(page);
    expect(prompt?.output[0]).toMatchObject({
      input: { amount: 500, to: 'Ada' },
      approval: { decision: 'approved' },
      result: { type: 'success' },
    });
    expect(model.requests).toEqual([]);
    await page.close();
  });

  it('fits a phone, in the dark theme too: the list above the form, defaults filled in', async () => {
    const page = await open(390, 844, 'dark');
    await page.getByRole('button', { name: 'Run a tool' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run a tool' });
    await dialog.getByRole('button', { name: /demo\.report/ }).click();
    expect(await dialog.getByRole('spinbutton', { name: /products/ }).inputValue()).toBe('8');
    await dialog.getByRole('spinbutton', { name: /products/ }).fill('3');
    await page.screenshot({ path: join(e2e.shots, 'tool-runner-390-dark.png') });
    await audit(page);
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await dialog.getByRole('button', { name: 'Run' }).click();
    await page.getByText('Done', { exact: true }).waitFor();
    await page.screenshot({ path: join(e2e.shots, 'tool-run-outputs-390-dark.png') });
    await page.close();
  });
});
