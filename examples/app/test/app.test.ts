import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Prompt } from '@tessera/core';
import { createServer, loadConfig, type TesseraServer } from '@tessera/server';
import { callTool, reply, scriptedModel } from '@tessera/testing';
import { afterEach, expect, it } from 'vitest';

const appDir = join(import.meta.dirname, '..');
const TOKEN = 'ada-token-0123456789';

let server: TesseraServer | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('serves the plugins of tessera.config.ts, loaded as tessera-server loads them, over HTTP', async () => {
  const { file, options } = await loadConfig({ cwd: appDir, env: {} });
  expect(file).toBe(join(appDir, 'tessera.config.ts'));
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-app-'));
  const model = scriptedModel([callTool('notes.add', { body: 'Call Ada' }), reply('Saved as #1.')]);
  server = await createServer({
    ...options,
    model,
    dataDir,
    webDir: null,
    auth: { tokens: { [TOKEN]: 'ada' } },
  });
  const { url } = await server.listen({ port: 0 });
  const api = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as T;
  };

  const me = await api<{ plugins: string[] }>('/api/me');
  expect(me.plugins).toEqual([
    'widgets',
    'files',
    'triggers',
    'goals',
    'skills',
    'blueprints',
    'instructions',
    'doom-loop',
    'notes',
  ]);

  const conversation = await api<{ id: string }>('/api/conversations', { title: 'Notes' });
  const completed = new Promise<void>((resolve) => {
    const stop = server!.platform.events.subscribe({ conversationId: conversation.id }, (event) => {
      if (event.type !== 'prompt.completed') return;
      stop();
      resolve();
    });
  });
  const sent = await api<{ prompt: Prompt }>(`/api/conversations/${conversation.id}/prompts`, {
    input: 'Remember to call Ada',
  });
  await completed;
  const prompt = await api<Prompt>(`/api/prompts/${sent.prompt.id}`);
  expect(prompt.output).toMatchObject([
    { type: 'tool', toolId: 'notes.add', result: { type: 'success', output: { id: 1 } } },
    { type: 'notes.saved', noteId: 1, body: 'Call Ada' },
    { type: 'text', text: 'Saved as #1.' },
  ]);
});
