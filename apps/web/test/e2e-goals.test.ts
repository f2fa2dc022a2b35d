// @vitest-environment node
// End-to-end in Debian's Chromium, against the real server with the goals plugin and a scripted model
// (issue 32): a goal is set in the side panel (a criterion checked by demo.delete_records, which needs
// approval); its first prompt runs and the progress log fills; the next one calls the check, which waits for
// approval: the goal pauses for it, the panel says so and why, and points at the call in the record; the user
// approves it there, the check's result is the criterion's evidence, and the goal completes. Light, dark and
// 390 px, each with an axe audit.
import { join } from 'node:path';
import { demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './support/axe.ts';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-goals-token-0123456789abcdef';
const model = new ScriptedModel();
// The goals plugin is one of the server's built-in plugins.
const e2e = e2eServer('goals', TOKEN, { model, plugins: [demoPlugin] });

async function api(path: string) {
  const response = await fetch(`${e2e.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.ok).toBe(true);
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field
  return (await response.json()) as Record<string, any>;
}

const conversationOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.slice(1));
const panelOf = (page: Page) => page.getByRole('region', { name: 'Goal', exact: true });

/** The page at another viewport and theme, on the same conversation, its panel open: no overflow, no axe violation. */
async function look(
  conversationId: string,
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark',
  name: string,
) {
  const page = await e2e.open(viewport, colorScheme);
  await page.goto(`${e2e.url}/#${encodeURIComponent(conversationId)}`);
  const panel = panelOf(page);
  // The record is there (the goal's first turn); at 1100 px and below the panel starts closed (an overlay).
  await page.locator('.goal-turn').first().waitFor();
  if (viewport.width <= 1100) await page.getByRole('button', { name: /^Show goal/ }).click();
  await panel.getByRole('list', { name: 'Criteria' }).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: join(e2e.shots, name) });
  await audit(page);
  return page;
}

describe('a goal in the web UI', () => {
  it('is set in the panel, logs its progress, pauses for approval, and completes with the check as evidence', async () => {
    model.push(
      // The goal's first prompt: it plans and says what it did, nothing checked yet.
      callTool('goal.update_plan', {
        plan: '1. Delete alpha with demo.delete_records (the check).',
        progress: 'Found the record alpha.',
      }),
      reply('I will delete the record alpha next: its deletion is the check.'),
      // The next: the check, which needs approval.
      callTool('demo.delete_records', { names: ['alpha'] }),
      reply('Deleted alpha: the goal is met.'),
    );
    const page = await e2e.open({ width: 1280, height: 900 });
    const panel = panelOf(page);
    await panel.getByRole('button', { name: 'Set a goal' }).click();
    const form = panel.getByRole('form', { name: 'New goal' });
    await form.getByRole('textbox', { name: 'Objective' }).fill('Delete the record alpha');
    await form.getByRole('textbox', { name: 'Criterion 1' }).fill('alpha is deleted');
    await form
      .getByRole('combobox', { name: 'How criterion 1 is verified' })
      .selectOption('demo.delete_records');
    await form.getByRole('spinbutton', { name: 'Model calls' }).fill('20');
    await form.getByRole('spinbutton', { name: 'Prompts', exact: true }).fill('5');
    await page.screenshot({ path: join(e2e.shots, 'goal-form-1280-light.png') });
    await audit(page);
    await form.getByRole('button', { name: 'Start the goal' }).click();

    // Its prompts run: the progress log fills, the record shows checkpoints.
    await panel.getByText('Delete the record alpha').waitFor();
    const log = panel.getByRole('list', { name: 'Progress, newest first' });
    await log.getByRole('listitem').first().waitFor();
    await page.locator('details.goal-checkpoint').first().waitFor();
    // The goal's prompts are its turns, not messages of the user's.
    const turn = page.locator('.goal-turn').first();
    await turn.getByText('Goal, turn 1: continued by the goal').waitFor();
    expect(await page.locator('.goal-turn').locator('..').locator('.user-message').count()).toBe(0);

    // The check waits for approval: the goal pauses, says why, and points at the call.
    const card = page.getByRole('region', { name: 'Approval needed for demo.delete_records' });
    await card.waitFor();
    const status = panel.getByRole('status');
    await status.getByText('Waiting for your approval').waitFor();
    expect(await panel.locator('.goal-state').textContent()).toBe('Paused');
    const goal = await api(`/api/conversations/${encodeURIComponent(conversationOf(page))}/goal`);
    expect(goal.pause.kind).toBe('approval');
    await status.getByText(goal.pause.reason).waitFor();
    expect((await log.getByRole('listitem').count()) >= 1).toBe(true);
    await page.screenshot({ path: join(e2e.shots, 'goal-paused-1280-light.png') });
    await audit(page);
    await status.getByRole('button', { name: 'Show the call to decide' }).click();
    await expect.poll(() => card.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // The other looks, while it waits. At 390 px the panel starts closed: a bar above the record says the
    // goal waits, and leads to the call and to the panel.
    const conversationId = conversationOf(page);
    const phone = await e2e.open({ width: 390, height: 844 });
    await phone.goto(`${e2e.url}/#${encodeURIComponent(conversationId)}`);
    const bar = phone.getByRole('region', { name: 'Goal summary' });
    await bar.getByText(/Waiting for your approval/).waitFor();
    await phone.screenshot({ path: join(e2e.shots, 'goal-bar-390-light.png') });
    await audit(phone);
    await bar.getByRole('button', { name: 'Show the call' }).click();
    const phoneCard = phone.getByRole('region', { name: 'Approval needed for demo.delete_records' });
    await expect.poll(() => phoneCard.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await bar.getByRole('button', { name: 'Open the goal' }).click();
    const phonePanel = panelOf(phone);
    await phonePanel.getByRole('status').getByText('Waiting for your approval').waitFor();
    await bar.waitFor({ state: 'detached' });
    // From the panel over the record: it closes, and the call has the focus.
    await phonePanel.getByRole('button', { name: 'Show the call to decide' }).click();
    await phonePanel.waitFor({ state: 'hidden' });
    await expect.poll(() => phoneCard.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await phone.context().close();
    for (const [viewport, scheme, name] of [
      [{ width: 1280, height: 900 }, 'dark', 'goal-paused-1280-dark.png'],
      [{ width: 390, height: 844 }, 'light', 'goal-paused-390-light.png'],
      [{ width: 390, height: 844 }, 'dark', 'goal-paused-390-dark.png'],
    ] as const) {
      const other = await look(conversationId, viewport, scheme, name);
      await other.context().close();
    }

    // Approved in the record: the check's result is the evidence, and the goal completes.
    await card.getByRole('button', { name: 'Approve' }).click();
    await panel.locator('.goal-state', { hasText: 'Completed' }).waitFor();
    const criterion = panel.getByRole('list', { name: 'Criteria' }).getByRole('listitem').first();
    await criterion.getByText('Met:').waitFor();
    await criterion.locator('.goal-evidence').waitFor();
    expect(await criterion.locator('.goal-evidence').textContent()).toContain('alpha');
    const done = await api(`/api/conversations/${encodeURIComponent(conversationId)}/goal`);
    expect(done.state).toBe('completed');
    expect(done.criteria[0].evidence).toMatchObject({ by: 'check' });
    // The log, newest first, as the server has it.
    const texts = await log.locator('li p').allTextContents();
    expect(texts).toEqual(done.progress.map((e: { text: string }) => e.text).reverse());
    // A checkpoint line opens to the goal's criteria at that point.
    const last = page.locator('details.goal-checkpoint').last();
    await last.locator('summary').click();
    await last.getByRole('list', { name: 'Criteria at this checkpoint' }).waitFor();
    await page.screenshot({ path: join(e2e.shots, 'goal-completed-1280-light.png') });
    await audit(page);
    for (const [viewport, scheme, name] of [
      [{ width: 1280, height: 900 }, 'dark', 'goal-completed-1280-dark.png'],
      [{ width: 390, height: 844 }, 'light', 'goal-completed-390-light.png'],
    ] as const) {
      const other = await look(conversationId, viewport, scheme, name);
      await other.context().close();
    }
  });

  it('pauses when a prompt makes no progress, is revised and confirmed by a person; another runs out of budget and resumes with more; a third is stopped', async () => {
    // The form at 390 px, dark, in the panel over the record.
    const phone = await e2e.open({ width: 390, height: 844 }, 'dark');
    await phone.locator('.panel-toggle').first().click();
    await panelOf(phone).getByRole('button', { name: 'Set a goal' }).click();
    await panelOf(phone)
      .getByRole('form', { name: 'New goal' })
      .getByRole('button', { name: 'Add a criterion' })
      .click();
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: join(e2e.shots, 'goal-form-390-dark.png') });
    await audit(phone);
    await phone.context().close();

    const page = await e2e.open({ width: 1280, height: 900 });
    const panel = panelOf(page);
    const start = async (objective: string, criterion: string, fields: Record<string, string>) => {
      await panel.getByRole('button', { name: /^(Set a goal|New goal)$/ }).click();
      const form = panel.getByRole('form', { name: 'New goal' });
      await form.getByRole('textbox', { name: 'Objective' }).fill(objective);
      await form.getByRole('textbox', { name: 'Criterion 1' }).fill(criterion);
      for (const [name, value] of Object.entries(fields))
        await form.getByRole('spinbutton', { name, exact: true }).fill(value);
      await form.getByRole('button', { name: 'Start the goal' }).click();
    };

    // One prompt without progress, a stall limit of 1: the goal pauses and says why.
    model.push(reply('I drafted the summary; Ada has to say it is right.'));
    await start('Write the summary for Ada', 'Ada says the summary is right', {
      'Pause after prompts without progress': '1',
    });
    const status = panel.getByRole('status');
    await status.getByText('Paused: no progress').waitFor();
    expect(await panel.getByRole('button', { name: 'Resume' }).isVisible()).toBe(true);

    // Revised while paused: the objective changes, the criterion (unchanged) stays.
    await panel.getByRole('button', { name: 'Revise' }).click();
    const revise = panel.getByRole('form', { name: 'Revise the goal' });
    await revise.getByRole('textbox', { name: 'Objective' }).fill('Write the short summary for Ada');
    await revise.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByText('Write the short summary for Ada').waitFor();

    // A person's criterion, confirmed with a note: the goal completes with it as evidence.
    await panel.getByRole('button', { name: 'Confirm: Ada says the summary is right' }).click();
    await panel.getByRole('textbox', { name: 'Note (optional)' }).fill('Ada read it and agrees.');
    await panel.getByRole('button', { name: 'Confirm it is met' }).click();
    await panel.locator('.goal-state', { hasText: 'Completed' }).waitFor();
    const evidence = panel.locator('.goal-evidence');
    await evidence.getByText('Ada read it and agrees.').waitFor();
    expect(await evidence.locator('.goal-evidence-by').textContent()).toMatch(/^Confirmed by ada /);

    // Another goal, one prompt allowed: it runs out of budget, and resumes with a larger one.
    model.push(reply('First pass over the inbox.'));
    await start('Sort the inbox', 'Ada says the inbox is sorted', {
      Prompts: '1',
      'Pause after prompts without progress': '5',
    });
    await panel.locator('.goal-state', { hasText: 'Out of budget' }).waitFor();
    await panel.getByText('1 of 1 · none left').waitFor();
    await page.screenshot({ path: join(e2e.shots, 'goal-out-of-budget-1280-light.png') });
    await audit(page);
    model.push(reply('Second pass over the inbox.'));
    await panel.getByRole('button', { name: 'Resume with a larger budget' }).click();
    const raise = panel.getByRole('form', { name: 'Resume with a larger budget' });
    expect(await raise.getByRole('spinbutton', { name: /^Prompts/ }).inputValue()).toBe('2');
    await raise.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Second pass over the inbox.').waitFor();
    // Its second prompt used the raised budget up: out of budget again.
    await panel.getByText('2 of 2 · none left').waitFor();
    await panel.locator('.goal-state', { hasText: 'Out of budget' }).waitFor();
    const goal = await api(`/api/conversations/${encodeURIComponent(conversationOf(page))}/goal`);
    expect(goal).toMatchObject({ state: 'budget_exhausted', budgets: { prompts: 2 }, used: { prompts: 2 } });

    // A third, paused for want of progress, is stopped (asked twice): it ends, and says so.
    model.push(reply('Nothing to do yet.'));
    await start('Plan the offsite', 'Ada picked a venue', { 'Pause after prompts without progress': '1' });
    await status.getByText('Paused: no progress').waitFor();
    await panel.getByRole('button', { name: 'Stop', exact: true }).click();
    await panel.getByRole('button', { name: 'Stop the goal' }).click();
    await panel.locator('.goal-state', { hasText: 'Stopped' }).waitFor();
    await panel.getByRole('button', { name: 'New goal' }).waitFor();
    await page.screenshot({ path: join(e2e.shots, 'goal-stopped-1280-light.png') });
  });
});
