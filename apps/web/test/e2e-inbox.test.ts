// @vitest-environment node
// End-to-end tests of the live conversation list and the inbox (issue 33) in Debian's Chromium, against the
// real server with a scripted model: conversations made, renamed and deleted elsewhere (as the CLI would,
// over the API) show without a reload, titles included; a conversation waiting for an approval has a badge,
// and the inbox lists every waiting call across conversations, decided in place.
import { join } from 'node:path';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './support/axe.ts';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-inbox-token-0123456789abcdef';
const model = new ScriptedModel();
// Three rounds a prompt: the approval tests take two, the pause test reaches the budget.
const e2e = e2eServer('inbox', TOKEN, { model, budgets: { maxRounds: 3 } });

/** A signed-in page at the start page (no conversation made by opening it). */
async function open(width: number, height: number, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await e2e.browser.newContext({ viewport: { width, height }, colorScheme });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log('[pageerror]', e.message));
  await page.goto(`${e2e.url}/#token=${TOKEN}`);
  await page.locator('.topbar').waitFor();
  return page;
}

/** The API as the CLI calls it: another client of the same user. */
async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${e2e.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(response.ok).toBe(true);
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field by the tests
  return response.status === 204 ? undefined : ((await response.json()) as Record<string, any>);
}

/** Polls the API (never the clock) until `check` holds. */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 1_000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not reached');
}

/** A conversation made over the API whose first message's prompt waits for an approval. */
async function waitingConversation(title: string, input: string): Promise<string> {
  const conversation = await api('POST', '/api/conversations', { title });
  const sent = await api('POST', `/api/conversations/${conversation!.id}/prompts`, { input });
  await until(
    async () => (await api('GET', `/api/prompts/${sent!.prompt.id}`))!.state === 'waiting_for_approval',
  );
  return conversation!.id as string;
}

const list = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });

describe('the live conversation list', () => {
  it('shows conversations made, renamed and deleted elsewhere without a reload, titles included', async () => {
    const page = await open(1440, 900);
    const nav = list(page);
    await nav.getByText('No conversations yet.').waitFor();

    const made = await api('POST', '/api/conversations', { title: 'Made by the CLI' });
    await nav.getByRole('button', { name: 'Made by the CLI' }).waitFor();
    await api('PATCH', `/api/conversations/${made!.id}`, { title: 'Renamed in another tab' });
    await nav.getByRole('button', { name: 'Renamed in another tab' }).waitFor();
    expect(await nav.getByRole('button', { name: 'Made by the CLI' }).count()).toBe(0);

    // Untitled, then named by the server after its first message.
    model.push(reply('Balloons, then cake.'));
    const untitled = await api('POST', '/api/conversations', {});
    await nav.getByRole('button', { name: /^Untitled/ }).waitFor();
    await api('POST', `/api/conversations/${untitled!.id}/prompts`, { input: 'Plan the garden party' });
    await nav.getByRole('button', { name: 'Plan the garden party' }).waitFor();
    expect(await nav.getByRole('button', { name: /^Untitled/ }).count()).toBe(0);

    await api('DELETE', `/api/conversations/${made!.id}`);
    await nav.getByRole('button', { name: 'Renamed in another tab' }).waitFor({ state: 'detached' });
    await page.screenshot({ path: join(e2e.shots, 'live-list-1440-light.png') });

    // Another tab of the same user: what one makes, the other lists.
    const other = await open(1440, 900);
    model.push(reply('Seeds in March.'));
    await other.getByRole('button', { name: 'New conversation' }).first().click();
    await other.getByRole('textbox', { name: 'Message' }).fill('Sow the tomatoes');
    await other.getByRole('button', { name: 'Send', exact: true }).click();
    await nav.getByRole('button', { name: 'Sow the tomatoes' }).waitFor();
    await other.close();
    await page.close();
  });
});

describe('waiting for the user: badges and the inbox', () => {
  it('marks each waiting conversation, counts what waits, and decides it in the inbox', async () => {
    model.push(
      callTool('demo.delete_records', { names: ['alpha'] }),
      callTool('demo.transfer', { amount: 500, to: 'Ada' }),
      reply('Deleted alpha.'),
      reply('Not sent, as you asked.'),
    );
    const page = await open(1440, 900);
    const cleanup = await waitingConversation('Cleanup', 'delete alpha');
    const payments = await waitingConversation('Payments', 'send $500 to Ada');
    const nav = list(page);
    for (const title of ['Cleanup', 'Payments'])
      await nav.getByRole('button', { name: `${title} Waiting for you` }).waitFor();
    const inbox = nav.getByRole('button', { name: 'Inbox 2 waiting' });
    await inbox.click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    const content = page.locator('.inbox');
    const cards = content.getByRole('region', { name: /Approval needed/ });
    await until(async () => (await cards.count()) === 2);
    expect(await content.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Cleanup',
      'Payments',
    ]);

    // Each links to its conversation.
    await content.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await page.goBack();
    await cards.first().waitFor();

    // Approved in place: the call runs, the prompt ends, the badge and the count go.
    const cleanupSection = content.getByRole('region', { name: 'Cleanup' });
    await cleanupSection.getByRole('button', { name: 'Approve' }).click();
    await cleanupSection.waitFor({ state: 'detached' });
    await nav.getByRole('button', { name: 'Inbox 1 waiting' }).waitFor();
    await nav.getByRole('button', { name: 'Cleanup', exact: true }).waitFor();
    await until(async () => {
      const { prompts } = (await api('GET', `/api/conversations/${cleanup}`))!;
      return prompts[0].state === 'completed';
    });

    // Rejected in place, with a reason the model reads.
    const paymentsSection = content.getByRole('region', { name: 'Payments' });
    await paymentsSection.getByRole('textbox', { name: /Reason if you reject/ }).fill('not this month');
    await paymentsSection.getByRole('button', { name: 'Reject' }).click();
    await content.getByText('Nothing waits for you').waitFor();
    await nav.getByRole('button', { name: 'Inbox', exact: true }).waitFor();
    const { prompts } = (await api('GET', `/api/conversations/${payments}`))!;
    expect(prompts[0].output[0]).toMatchObject({
      approval: { decision: 'rejected', comment: 'not this month' },
      result: { type: 'error', error: { code: 'rejected' } },
    });
    await page.close();
  });

  it('lists a pause too (a budget reached), continued in place with a larger budget', async () => {
    const weather = callTool('demo.weather', { city: 'Paris' });
    model.push(weather, weather, weather, reply('Sunny, three times over.'));
    const conversation = await api('POST', '/api/conversations', { title: 'Weather watch' });
    const sent = await api('POST', `/api/conversations/${conversation!.id}/prompts`, { input: 'weather' });
    const page = await open(1440, 900);
    await list(page).getByRole('button', { name: 'Weather watch Waiting for you' }).waitFor();
    await list(page).getByRole('button', { name: 'Inbox 1 waiting' }).click();
    const section = page.locator('.inbox').getByRole('region', { name: 'Weather watch' });
    await section.getByText('The assistant reached its budget').waitFor();
    await section.getByRole('button', { name: 'Continue with a larger budget' }).click();
    await page.locator('.inbox').getByText('Nothing waits for you').waitFor();
    await until(async () => (await api('GET', `/api/prompts/${sent!.prompt.id}`))!.state === 'completed');
    await list(page).getByRole('button', { name: 'Weather watch', exact: true }).waitFor();
    await page.close();
  });

  it('fits 1440 and 390 px in both themes (the list a drawer on a phone), and passes the axe audit', async () => {
    model.push(callTool('demo.delete_records', { names: ['beta'] }));
    await waitingConversation('Old records', 'delete beta');
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const page = await open(width, height, theme);
        const name = `${width}-${theme}`;
        const phone = width < 700;
        // On a phone the top bar's inbox button says that something waits, with the list in its drawer.
        const inbox = page.getByRole('button', { name: 'Inbox 1 waiting' });
        if (phone) {
          await page.locator('.topbar').getByRole('button', { name: 'Inbox 1 waiting' }).waitFor();
          await page.getByRole('button', { name: 'Conversations' }).click();
        }
        await list(page).getByRole('button', { name: 'Old records Waiting for you' }).waitFor();
        await page.waitForTimeout(300); // the drawer's slide-in, for the picture only
        await page.screenshot({ path: join(e2e.shots, `inbox-list-${name}.png`) });
        await audit(page);
        await list(page).getByRole('button', { name: 'Inbox 1 waiting' }).click();
        await page
          .locator('.inbox')
          .getByRole('region', { name: /Approval needed/ })
          .waitFor();
        if (phone) await page.locator('.sidebar').waitFor({ state: 'hidden' }); // the drawer closed
        await page.screenshot({ path: join(e2e.shots, `inbox-${name}.png`) });
        await audit(page);
        expect(await inbox.count()).toBeGreaterThan(0);
        await page.close();
      }
    }
  });
});
