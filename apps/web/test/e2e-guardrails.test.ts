// @vitest-environment node
// End-to-end test of a tripped guardrail in Debian's Chromium, against the real server with a scripted model:
// what the guardrail blocked stays on screen with a note saying so, and the model never reads it again.
import { join } from 'node:path';
import { definePlugin } from '@tessera/core';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-guardrails-token-0123456789ab';
const model = new ScriptedModel();
const leak = definePlugin({
  id: 'leak',
  guardrails: {
    output: ({ text }) =>
      text.includes('SECRET') ? { trip: 'Answers must not contain secrets.' } : undefined,
  },
});
const e2e = e2eServer('guardrails', TOKEN, { model, plugins: [leak] });

describe('a tripped guardrail in the web UI', () => {
  it('shows what it blocked and why, and the model never reads it again', async () => {
    model.push(
      { ...callTool('demo.delete_records', { names: ['alpha'] }), text: 'The SECRET code is 42.' },
      (request) =>
        reply(
          JSON.stringify(request.messages).includes('SECRET') ? 'I can still read it.' : 'I cannot see it.',
        ),
    );
    const page = await e2e.open({ width: 1100, height: 760 });
    await page.getByRole('textbox', { name: 'Message' }).fill('what is the code?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const note = page.getByRole('note').filter({ hasText: 'Blocked by the output guardrail of leak' });
    await note.getByText('Answers must not contain secrets.').waitFor();
    await note.getByText('The model will not see this answer again; its tool calls did not run.').waitFor();
    // Its tool call did not run, and asks for no approval.
    expect(await page.getByRole('region', { name: /Approval needed/ }).count()).toBe(0);
    await page.screenshot({ path: join(e2e.shots, 'guardrail-tripped.png') });

    await page.getByRole('textbox', { name: 'Message' }).fill('go on');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('I cannot see it.').waitFor();
    await page.close();
  });
});
