// @vitest-environment node
// End-to-end test of branches in Debian's Chromium against the real server (PGlite) with a scripted model:
// Edit & resend and Regenerate fork the conversation at their turn instead of appending; the turn shows
// "‹ 2/3 ›" to flip between branches; the model reads only the branch shown; a reload keeps the branch; the
// list shows one entry per conversation; the title follows a branch of the first message.
import { join } from 'node:path';
import { reply, ScriptedModel } from '@tessera/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './support/axe.ts';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-branches-token-0123456789';
const model = new ScriptedModel();
const e2e = e2eServer('branches', TOKEN, { model });

const conversationOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));
const inputsOf = async (page: Page) =>
  (await e2e.server.platform.conversations.prompts(conversationOf(page), 'ada')).map((p) => p.input);
const turns = (page: Page) => page.locator('article.prompt');
const switcherOf = (page: Page, turn: number) =>
  turns(page)
    .nth(turn)
    .getByRole('group', { name: /^Branch / });
const list = (page: Page) => page.getByRole('navigation', { name: 'Conversations' }).getByRole('listitem');

async function send(page: Page, text: string, answer: string) {
  model.push(reply(answer));
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText(answer).waitFor();
  await page.locator('article.prompt').last().locator('.state-completed').waitFor();
}

/** Waits for the answer of a new branch: its address changes, and its last turn completes with `answer`. */
async function branchAnswered(page: Page, from: string, answer: string) {
  await expect.poll(() => conversationOf(page), { timeout: 60_000 }).not.toBe(from);
  await turns(page).last().getByText(answer).waitFor();
  await turns(page).last().locator('.state-completed').waitFor();
}

describe('branches', () => {
  it('edits and regenerates as branches, flips ‹ 1/3 ›, keeps the branch on reload, and sends the model only the branch', async () => {
    const page = await e2e.open({ width: 1440, height: 900 });
    const root = conversationOf(page);
    await send(page, 'Capital of France?', 'Paris.');
    await send(page, 'Capital of Italy?', 'Rome.');

    // Edit & resend: a branch at the second turn; the old exchange leaves the conversation and the context.
    model.push(reply('Madrid.'));
    await turns(page).nth(1).getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('textbox', { name: 'Edited text' }).fill('Capital of Spain?');
    await page.getByRole('button', { name: 'Save and send' }).click();
    await branchAnswered(page, root, 'Madrid.');
    const edited = conversationOf(page);
    expect(await inputsOf(page)).toEqual(['Capital of France?', 'Capital of Spain?']);
    expect(await turns(page).count()).toBe(2);
    expect(model.read()).toContain('Paris.');
    expect(model.read()).not.toContain('Italy');
    expect(model.read()).not.toContain('Rome.');
    const switcher = switcherOf(page, 1);
    await expect.poll(() => switcher.getAttribute('aria-label')).toBe('Branch 2 of 2');
    expect(await switcher.textContent()).toBe('2/2');
    expect(await switcherOf(page, 0).count()).toBe(0);

    // Regenerate: another branch at the same turn, without the answer it replaces.
    model.push(reply('Madrid, on the Manzanares.'));
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await branchAnswered(page, edited, 'Madrid, on the Manzanares.');
    const regenerated = conversationOf(page);
    expect(model.read()).toContain('Capital of Spain?');
    expect(model.read()).not.toContain('Madrid.');
    await expect.poll(() => switcherOf(page, 1).getAttribute('aria-label')).toBe('Branch 3 of 3');
    // One entry in the list for the three branches: the one shown.
    expect(await list(page).count()).toBe(1);

    // Flip back with the keyboard: Previous branch → 2/3 (the edit), again → 1/3 (the original).
    await switcherOf(page, 1).getByRole('button', { name: 'Previous branch' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => conversationOf(page)).toBe(edited);
    await turns(page).last().getByText('Madrid.', { exact: true }).waitFor();
    await expect.poll(() => switcherOf(page, 1).getAttribute('aria-label')).toBe('Branch 2 of 3');
    await switcherOf(page, 1).getByRole('button', { name: 'Previous branch' }).click();
    await expect.poll(() => conversationOf(page)).toBe(root);
    await turns(page).last().getByText('Rome.').waitFor();
    await expect.poll(() => switcherOf(page, 1).getAttribute('aria-label')).toBe('Branch 1 of 3');
    expect(await switcherOf(page, 1).getByRole('button', { name: 'Previous branch' }).isDisabled()).toBe(
      true,
    );
    await switcherOf(page, 1).getByRole('button', { name: 'Next branch' }).click();
    await expect.poll(() => conversationOf(page)).toBe(edited);

    // A reload keeps the branch shown.
    await page.reload();
    await turns(page).last().getByText('Madrid.', { exact: true }).waitFor();
    expect(conversationOf(page)).toBe(edited);
    await expect.poll(() => switcherOf(page, 1).getAttribute('aria-label')).toBe('Branch 2 of 3');
    expect(await list(page).count()).toBe(1);
    await audit(page);

    // The branch sent next reads only its own history.
    await send(page, 'And of Portugal?', 'Lisbon.');
    expect(model.read()).toContain('Capital of Spain?');
    expect(model.read()).not.toContain('Italy');
    expect(model.read()).not.toContain('Manzanares');
    expect(regenerated).not.toBe(edited);
    await page.context().close();
  });

  it('names a branch of the first message after it, and shows it in the list', async () => {
    const page = await e2e.open({ width: 1440, height: 900 });
    const root = conversationOf(page);
    await send(page, 'Tell me about cats', 'Cats purr.');
    await page.getByRole('heading', { level: 1, name: 'Tell me about cats' }).waitFor();
    model.push(reply('Dogs bark.'));
    await turns(page).first().getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('textbox', { name: 'Edited text' }).fill('Tell me about dogs');
    await page.getByRole('button', { name: 'Save and send' }).click();
    await branchAnswered(page, root, 'Dogs bark.');
    await page.getByRole('heading', { level: 1, name: 'Tell me about dogs' }).waitFor();
    await expect.poll(() => switcherOf(page, 0).getAttribute('aria-label')).toBe('Branch 2 of 2');
    const entries = page.getByRole('navigation', { name: 'Conversations' });
    await entries.getByRole('button', { name: 'Tell me about dogs', exact: true }).waitFor();
    expect(await entries.getByRole('button', { name: 'Tell me about cats', exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('takes screenshots of a turn with branches at 1440 and 390 px, light and dark, each passing the audit', async () => {
    const seed = await e2e.open({ width: 1440, height: 900 });
    const root = conversationOf(seed);
    await send(seed, 'Write a haiku about the sea', 'Waves fold into foam.');
    model.push(reply('Salt wind, gulls, and light.'));
    await seed.getByRole('button', { name: 'Regenerate' }).click();
    await branchAnswered(seed, root, 'Salt wind, gulls, and light.');
    const branch = conversationOf(seed);
    await seed.context().close();
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        const page = await e2e.open({ width, height }, colorScheme);
        await page.goto(`${e2e.url}/#${encodeURIComponent(branch)}`);
        await page.getByText('Salt wind, gulls, and light.').waitFor();
        await expect.poll(() => switcherOf(page, 0).getAttribute('aria-label')).toBe('Branch 2 of 2');
        await page.screenshot({ path: join(e2e.shots, `branches-${width}-${colorScheme}.png`) });
        await audit(page);
        await page.context().close();
      }
    }
  });
});
