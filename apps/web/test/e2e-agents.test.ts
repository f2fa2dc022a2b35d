// @vitest-environment node
// End-to-end in Debian's Chromium, against the real server with a scripted model (issue 31): a sub-agent's
// call that needs approval, two levels below the user's prompt (the user's prompt asks the planner, which
// asks the cleaner, whose call needs approval). The user's prompt waits with its agent call suspended (no
// process holds it), the record shows the agent waiting; the Inbox lists the calls under the user's
// conversation, the cleaner's call with its path as a breadcrumb (Trip planning › planner › cleaner ›
// demo.delete_records), each agent's own call as waiting on its sub-agent, not as something to approve;
// approving the cleaner's call there runs the tool once and resumes every level to the user's answer.
import { join } from 'node:path';
import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './support/axe.ts';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-agents-token-0123456789abcdef';
const model = new ScriptedModel();
const planner = defineAgent({
  name: 'planner',
  description: 'Plans the work and asks the cleaner to do it.',
  instructions: 'Ask the cleaner to delete what you are asked to.',
  tools: ['agent.cleaner'],
});
const cleaner = defineAgent({
  name: 'cleaner',
  description: 'Deletes records it is told to.',
  instructions: 'Delete the records you are asked to, then say what you deleted.',
  tools: ['demo.delete_records'],
});
const e2e = e2eServer('agents', TOKEN, {
  model,
  plugins: [demoPlugin, agentsPlugin({ agents: [planner, cleaner] })],
});

async function api(path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${e2e.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  expect(response.ok).toBe(true);
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field
  return (await response.json()) as Record<string, any>;
}

/** The Inbox, at a viewport and theme: the breadcrumb of the cleaner's call, and its card to approve. */
async function openInbox(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') {
  const page = await e2e.open(viewport, colorScheme);
  await page.goto(`${e2e.url}/#inbox`);
  await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
  await page.getByRole('navigation', { name: 'Where demo.delete_records is' }).waitFor();
  return page;
}

const breadcrumb = (page: Page, toolId: string) =>
  page.locator('.inbox').getByRole('navigation', { name: `Where ${toolId} is` });

describe('a sub-agent that needs approval', () => {
  it("waits in the user's record, shows in the Inbox with its path, is approved there, and the user's prompt goes on to its answer", async () => {
    model.push(
      callTool('agent.planner', { task: 'Have the record alpha deleted.' }), // the user's prompt
      callTool('agent.cleaner', { task: 'Delete the record alpha.' }), // the planner's
      callTool('demo.delete_records', { names: ['alpha'] }), // the cleaner's: needs approval
      reply('I deleted alpha.'),
      reply('The cleaner deleted alpha.'),
      reply('The planner had the cleaner delete alpha for you.'),
    );
    const page = await e2e.open({ width: 1280, height: 900 });
    const trip = await api('/api/conversations', { method: 'POST', body: { title: 'Trip planning' } });
    await page.goto(`${e2e.url}/#${encodeURIComponent(trip.id)}`);
    await page.getByRole('textbox', { name: 'Message' }).fill('Clean up the record alpha');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const run = page.getByRole('region', { name: 'Sub-agent planner' });
    // (Its run shows inline, the cleaner's nested in it, waiting too: the planner's own label comes first.)
    await run.getByText('waiting for your decision').first().waitFor();
    // The user's own call waits on the agent: nothing of it to approve before it runs.
    await page.getByRole('region', { name: 'agent.planner waits' }).getByText('Other decisions').waitFor();
    await page.screenshot({ path: join(e2e.shots, 'agent-waiting-1280.png') });

    await page
      .getByRole('button', { name: /^Inbox/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    const inbox = page.locator('.inbox');
    // The three calls of the tree, under the user's conversation; one to decide.
    const group = inbox.getByRole('region', { name: 'Trip planning' });
    const path = breadcrumb(page, 'demo.delete_records');
    await path.waitFor();
    const { items } = await api('/api/approvals');
    const deepest = items.find((item: { toolId: string }) => item.toolId === 'demo.delete_records');
    expect(await path.getByRole('link').allTextContents()).toEqual(['Trip planning', 'planner', 'cleaner']);
    expect(
      await path.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(deepest.path.map((step: { conversationId: string }) => `#${step.conversationId}`));
    expect(await path.getByRole('listitem').last().locator('code').textContent()).toBe('demo.delete_records');
    // Read as a breadcrumb: a separator between the steps (hidden from screen readers: the list says the order).
    expect(await path.textContent()).toMatch(
      /^Trip planning\s*›\s*planner\s*›\s*cleaner\s*›\s*demo\.delete_records$/,
    );
    expect(await breadcrumb(page, 'agent.cleaner').getByRole('link').allTextContents()).toEqual([
      'Trip planning',
      'planner',
    ]);
    // Each agent's call waits on its sub-agent: a line saying which call to decide, no Approve of its own.
    for (const [toolId, agent] of [
      ['agent.planner', 'planner'],
      ['agent.cleaner', 'cleaner'],
    ]) {
      const waiting = group.getByRole('region', { name: `${toolId} waits on its sub-agent` });
      await expect
        .poll(() => waiting.locator('p').first().textContent())
        .toBe(
          `${toolId} waits on its agent ${agent}: decide demo.delete_records below, and it goes on by itself.`,
        );
      expect(await waiting.getByRole('button', { name: 'Check again' }).isVisible()).toBe(false);
    }
    expect(await group.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(1);
    // The inbox's count: one thing to decide, not three.
    await page.getByRole('button', { name: 'Inbox 1 waiting' }).first().waitFor();
    await page.screenshot({ path: join(e2e.shots, 'agent-inbox-1280-light.png'), fullPage: true });
    await audit(page);

    // Dark, and a phone's width: the breadcrumb wraps, nothing overflows.
    for (const [viewport, colorScheme, name] of [
      [{ width: 1280, height: 900 }, 'dark', 'agent-inbox-1280-dark.png'],
      [{ width: 390, height: 844 }, 'light', 'agent-inbox-390-light.png'],
      [{ width: 390, height: 844 }, 'dark', 'agent-inbox-390-dark.png'],
    ] as const) {
      const other = await openInbox(viewport, colorScheme);
      const overflow = await other.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await other.screenshot({ path: join(e2e.shots, name), fullPage: true });
      await audit(other);
      await other.context().close();
    }

    await group.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.goBack();
    await page.getByText('The planner had the cleaner delete alpha for you.').waitFor();
    await run.getByText('done').waitFor();
    await page.screenshot({ path: join(e2e.shots, 'agent-done-1280.png') });

    // The record: the tool ran once, in the cleaner's prompt; the user's prompt completed with the answer.
    const cleanerRun = await api(`/api/prompts/${deepest.promptId}`);
    const calls = cleanerRun.output.filter((o: { type: string }) => o.type === 'tool');
    expect(calls).toHaveLength(1);
    expect(calls[0].result).toEqual({ type: 'success', output: { deleted: ['alpha'] } });
    expect(calls[0].approval.decision).toBe('approved');
    expect((await api('/api/approvals')).items).toEqual([]);
  });
});
