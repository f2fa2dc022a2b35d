// @vitest-environment node
// End-to-end in Debian's Chromium, against the real server with a scripted model (issue 31): a sub-agent's
// call that needs approval, two levels below the user's prompt. The user's prompt waits with its agent call
// suspended (no process holds it), the record shows the agent waiting, the Inbox lists the child's call, and
// approving it there runs the tool once, ends the child, and resumes the user's prompt to its answer.
import { join } from 'node:path';
import { agentsPlugin, defineAgent } from '@tessera/plugin-agents';
import { demoPlugin } from '@tessera/server';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-agents-token-0123456789abcdef';
const model = new ScriptedModel();
const cleaner = defineAgent({
  name: 'cleaner',
  description: 'Deletes records it is told to.',
  instructions: 'Delete the records you are asked to, then say what you deleted.',
  tools: ['demo.delete_records'],
});
const e2e = e2eServer('agents', TOKEN, {
  model,
  plugins: [demoPlugin, agentsPlugin({ agents: [cleaner] })],
});

async function api(path: string) {
  const response = await fetch(`${e2e.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.ok).toBe(true);
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field
  return (await response.json()) as Record<string, any>;
}

describe('a sub-agent that needs approval', () => {
  it("waits in the user's record, is approved in the Inbox, and the user's prompt goes on to its answer", async () => {
    model.push(
      callTool('agent.cleaner', { task: 'Delete the record alpha.' }), // the user's prompt
      callTool('demo.delete_records', { names: ['alpha'] }), // the cleaner's
      reply('I deleted alpha.'),
      reply('The cleaner deleted alpha for you.'),
    );
    const page = await e2e.open({ width: 1280, height: 900 });
    await page.getByRole('textbox', { name: 'Message' }).fill('Clean up the record alpha');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const run = page.getByRole('region', { name: 'Sub-agent cleaner' });
    await run.getByText('waiting for your decision').waitFor();
    // The user's own call waits on the agent: nothing of it to approve before it runs.
    await page
      .getByRole('region', { name: 'Waiting for agent.cleaner' })
      .getByRole('button', { name: 'Check again' })
      .waitFor();
    await page.screenshot({ path: join(e2e.shots, 'agent-waiting-1280.png') });

    await page
      .getByRole('button', { name: /^Inbox/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    const child = page.locator('.inbox').getByRole('region', { name: /^cleaner: Delete the record alpha/ });
    await child.getByText('demo.delete_records').first().waitFor();
    await page.screenshot({ path: join(e2e.shots, 'agent-inbox-1280.png') });
    await child.getByRole('button', { name: 'Approve' }).click();

    await page.goBack();
    await page.getByText('The cleaner deleted alpha for you.').waitFor();
    await run.getByText('done').waitFor();
    await page.screenshot({ path: join(e2e.shots, 'agent-done-1280.png') });

    // The record: the tool ran once, in the child; the user's prompt completed with the child's answer.
    const conversations = (await api('/api/conversations')).items as { id: string; title?: string }[];
    const childConversation = conversations.find((c) => c.title?.startsWith('cleaner:'))!;
    const { prompts } = await api(`/api/conversations/${childConversation.id}`);
    const calls = prompts[0].output.filter((o: { type: string }) => o.type === 'tool');
    expect(calls).toHaveLength(1);
    expect(calls[0].result).toEqual({ type: 'success', output: { deleted: ['alpha'] } });
    expect(calls[0].approval.decision).toBe('approved');
  });
});
