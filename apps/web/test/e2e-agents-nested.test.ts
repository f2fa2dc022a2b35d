// @vitest-environment node
// End-to-end in Debian's Chromium, against the real server with a scripted model (issue 31): a sub-agent's
// run shows inline in the parent's call, live from the parent's event stream (which carries the child's and
// grandchild's events), the grandchild's call that needs approval is approved in place, and the parent
// completes; ended runs collapse, and open again on a click. Screenshots: light, dark and narrow.
import { join } from 'node:path';
import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-agents-nested-token-0123456789ab';
const model = new ScriptedModel();
const manager = defineAgent({
  name: 'manager',
  description: 'Hands cleaning work to the cleaner.',
  instructions: 'Ask the cleaner to do it, then report.',
  tools: ['agent.cleaner'],
});
const cleaner = defineAgent({
  name: 'cleaner',
  description: 'Deletes records it is told to.',
  instructions: 'Delete the records you are asked to, then say what you deleted.',
  tools: ['demo.delete_records'],
});
const e2e = e2eServer('agents-nested', TOKEN, {
  model,
  plugins: [demoPlugin, agentsPlugin({ agents: [manager, cleaner] })],
});

async function api(path: string) {
  const response = await fetch(`${e2e.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.ok).toBe(true);
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field
  return (await response.json()) as Record<string, any>;
}

describe("a sub-agent's run inline in the parent's call", () => {
  it('shows the nested run live, approves the grandchild in place, and collapses the ended runs', async () => {
    model.push(
      callTool('agent.manager', { task: 'Get the record alpha deleted.' }), // the user's prompt
      callTool('agent.cleaner', { task: 'Delete the record alpha.' }), // the manager's
      callTool('demo.delete_records', { names: ['alpha'] }), // the cleaner's: needs approval
      reply('I deleted alpha.'),
      reply('The cleaner deleted alpha.'),
      reply('Done: the record alpha is deleted.'),
    );
    const page = await e2e.open({ width: 1280, height: 900 });
    const address = page.url();
    await page.getByRole('textbox', { name: 'Message' }).fill('Get rid of the record alpha');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    // The manager's run, open while it waits, holds the cleaner's, which holds the call to approve.
    const managerRun = page.getByRole('region', { name: 'Sub-agent manager' });
    const managerBody = managerRun.getByRole('region', { name: 'Run of agent manager' });
    const cleanerRun = managerBody.getByRole('region', { name: 'Sub-agent cleaner' });
    const cleanerBody = cleanerRun.getByRole('region', { name: 'Run of agent cleaner' });
    const approve = cleanerBody.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    await expect
      .poll(() => managerRun.getByRole('button', { name: 'Agent manager' }).getAttribute('aria-expanded'))
      .toBe('true');
    await expect(cleanerBody.getByText('demo.delete_records').first().isVisible()).resolves.toBe(true);
    // The link to each child's conversation stays.
    await cleanerRun.getByRole('link', { name: 'Open its conversation' }).first().waitFor();
    await page.screenshot({ path: join(e2e.shots, 'nested-waiting-light-1280.png') });
    // Opened later, narrow and dark: the runs are read from the API, open while they wait.
    const phone = await e2e.open({ width: 390, height: 844 }, 'dark');
    await phone.goto(address);
    await phone
      .getByRole('region', { name: 'Run of agent cleaner' })
      .getByRole('button', { name: 'Approve' })
      .waitFor();
    await phone.screenshot({ path: join(e2e.shots, 'nested-waiting-dark-390.png'), fullPage: true });
    await phone.context().close();

    // Approved in place: the cleaner's answer arrives live in the nested run, then the user's answer.
    await approve.click();
    await page.getByText('Done: the record alpha is deleted.').waitFor();
    // Ended: both runs collapse to their card, with the summary.
    await managerRun.getByText('done', { exact: true }).waitFor();
    await expect
      .poll(() => managerRun.getByRole('button', { name: 'Agent manager' }).getAttribute('aria-expanded'))
      .toBe('false');
    await page.screenshot({ path: join(e2e.shots, 'nested-done-collapsed-light-1280.png') });
    // Opened again: the manager's run, and inside it the cleaner's (collapsed until opened), with its answer.
    await managerRun.getByRole('button', { name: 'Agent manager' }).click();
    await managerBody.getByText('The cleaner deleted alpha.').waitFor();
    await cleanerRun.getByRole('button', { name: 'Agent cleaner' }).click();
    await cleanerBody.getByText('I deleted alpha.').waitFor();
    await page.screenshot({ path: join(e2e.shots, 'nested-done-open-light-1280.png') });

    // The record: the tool ran once, in the cleaner, approved; the user's prompt completed.
    const conversations = (await api('/api/conversations')).items as { id: string; title?: string }[];
    const cleanerConversation = conversations.find((c) => c.title?.startsWith('cleaner:'))!;
    const { prompts } = await api(`/api/conversations/${cleanerConversation.id}`);
    const calls = prompts[0].output.filter((o: { type: string }) => o.type === 'tool');
    expect(calls).toHaveLength(1);
    expect(calls[0].result).toEqual({ type: 'success', output: { deleted: ['alpha'] } });
    expect(calls[0].approval.decision).toBe('approved');

    // The same record in the dark theme, and narrow: read from the API when opened (no live events).
    for (const [name, viewport, scheme] of [
      ['dark-1280', { width: 1280, height: 900 }, 'dark'],
      ['light-390', { width: 390, height: 844 }, 'light'],
      ['dark-390', { width: 390, height: 844 }, 'dark'],
    ] as const) {
      const other = await e2e.open(viewport, scheme);
      await other.goto(address);
      const run = other.getByRole('region', { name: 'Sub-agent manager' });
      await run.getByRole('button', { name: 'Agent manager' }).click();
      const inner = run.getByRole('region', { name: 'Sub-agent cleaner' });
      await inner.getByRole('button', { name: 'Agent cleaner' }).click();
      await inner.getByText('I deleted alpha.').waitFor();
      await other.screenshot({ path: join(e2e.shots, `nested-done-open-${name}.png`), fullPage: true });
      await other.context().close();
    }
  });
});
