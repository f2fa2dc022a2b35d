// The app as `npm start` serves it, on a scripted model (@tessera/testing): no API key, no network.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Prompt } from '@tessera/core';
import { createServer, loadConfig, type TesseraServer } from '@tessera/server';
import { callTool, reply, scriptedModel } from '@tessera/testing';
import { afterEach, expect, it } from 'vitest';

const appDir = join(import.meta.dirname, '..');
const TOKEN = 'test-token-0123456789';

let server: TesseraServer | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('serves the __PLUGIN_ID__ plugin of tessera.config.ts, with the web UI, over HTTP', async () => {
  // The config file as tessera-server reads it (an empty environment: no OPENAI_API_KEY of yours).
  const { options } = await loadConfig({ cwd: appDir, env: {} });
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-test-'));
  // The model's turns: call the plugin's tool, then answer.
  const model = scriptedModel([callTool('__PLUGIN_ID__.add', { title: 'Call Ada' }), reply('Added as #1.')]);
  server = await createServer({ ...options, model, dataDir, auth: { tokens: { [TOKEN]: 'ada' } } });
  const { url } = await server.listen({ port: 0 });
  const api = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as T;
  };

  expect(await (await fetch(url)).text()).toContain('<div id="root">');
  const me = await api<{ plugins: string[] }>('/api/me');
  expect(me.plugins).toContain('__PLUGIN_ID__');

  const conversation = await api<{ id: string }>('/api/conversations', { title: 'Lists' });
  const completed = new Promise<void>((resolve) => {
    const stop = server!.platform.events.subscribe({ conversationId: conversation.id }, (event) => {
      if (event.type !== 'prompt.completed') return;
      stop();
      resolve();
    });
  });
  const sent = await api<{ prompt: Prompt }>(`/api/conversations/${conversation.id}/prompts`, {
    input: 'Add "Call Ada" to my list',
  });
  await completed;
  const prompt = await api<Prompt>(`/api/prompts/${sent.prompt.id}`);
  expect(model.toolsOffered(0)).toContain('__PLUGIN_ID__.add');
  expect(prompt.output).toMatchObject([
    { type: 'tool', toolId: '__PLUGIN_ID__.add', result: { type: 'success', output: { id: 1 } } },
    { type: 'text', text: 'Added as #1.' },
  ]);
});
