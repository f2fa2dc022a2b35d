// @vitest-environment node
// The AI SDK's own client against the server (issue 34): a page built with `useChat` from @ai-sdk/react and a
// DefaultChatTransport pointed at POST /api/ai-sdk/chat (test/ai-sdk/chat.tsx), nothing of Tessera's in it,
// driven in Debian's Chromium. The user sends a message, the model's transfer needs approval, the page shows
// the tool part with Approve, the click is sent back by the SDK, and the call's output and the answer stream in.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { e2eServer } from './support/e2e-server.ts';

const TOKEN = 'e2e-ai-sdk-token-0123456789abcdef';
const model = new ScriptedModel();

// The page is built before the server serves it (hooks run in order), into a folder of its own.
let pageDir = '';
beforeAll(async () => {
  pageDir = await mkdtemp(join(tmpdir(), 'tessera-ai-sdk-page-'));
  await build({
    root: new URL('./ai-sdk', import.meta.url).pathname,
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    build: { outDir: pageDir, emptyOutDir: true },
  });
});
afterAll(() => rm(pageDir, { recursive: true, force: true }));

const e2e = e2eServer('ai-sdk', TOKEN, {
  model,
  get webDir() {
    return pageDir; // read when the server starts, after the build
  },
});

/** The server's record of the user's conversations, as another client reads it. */
async function conversations() {
  const response = await fetch(`${e2e.url}/api/conversations`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return (await response.json()).items as { id: string; title?: string }[];
}

it('useChat sends, shows the tool waiting, approves it, and shows its output and the answer', async () => {
  model.push(callTool('demo.transfer', { amount: 500, to: 'Ada' }), reply(['Sent $500', ' to Ada.']));
  const context = await e2e.browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${e2e.url}/#token=${TOKEN}`);

  await page.getByRole('textbox', { name: 'Message' }).fill('transfer $500 to Ada');
  await page.getByRole('button', { name: 'Send' }).click();

  const tool = page.getByRole('region', { name: 'Tool demo.transfer' });
  await expect.poll(() => tool.getAttribute('data-state'), { timeout: 30_000 }).toBe('approval-requested');
  await expect
    .poll(() => tool.textContent())
    .toContain('Transfers over $100 need your approval: $500 to Ada.');
  await expect.poll(() => page.getByLabel('Status').textContent()).toBe('ready');
  await page.screenshot({ path: join(e2e.shots, 'ai-sdk-chat-approval.png') });
  const [waiting] = await conversations();
  expect(waiting).toBeDefined();

  await tool.getByRole('button', { name: 'Approve' }).click();
  await expect.poll(() => tool.getAttribute('data-state'), { timeout: 30_000 }).toBe('output-available');
  expect(JSON.parse((await tool.locator('[data-part="output"]').textContent()) ?? '')).toMatchObject({
    transferred: 500,
    to: 'Ada',
  });
  const assistant = page.locator('li[data-role="assistant"]');
  await expect.poll(() => assistant.last().textContent(), { timeout: 30_000 }).toContain('Sent $500 to Ada.');
  await expect.poll(() => page.getByLabel('Status').textContent()).toBe('ready');
  // One assistant message: the answer went on in the message that asked.
  expect(await assistant.count()).toBe(1);
  await page.screenshot({ path: join(e2e.shots, 'ai-sdk-chat-answered.png') });

  // The chat is one conversation of the user's, its call approved by them and its prompt completed.
  const [conversation] = await conversations();
  expect(conversation?.id).toBe(waiting?.id);
  const record = await fetch(`${e2e.url}/api/conversations/${conversation!.id}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  }).then((response) => response.json());
  expect(record.prompts).toHaveLength(1);
  expect(record.prompts[0].state).toBe('completed');
  expect(record.prompts[0].output.find((output: { type: string }) => output.type === 'tool')).toMatchObject({
    toolId: 'demo.transfer',
    approval: { decision: 'approved', decidedBy: 'ada' },
    result: { type: 'success' },
  });
  expect(errors).toEqual([]);
  await context.close();
});
