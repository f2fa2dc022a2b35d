import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, createTool, definePlugin, PluginError } from '@tessera/core';
import filesPluginFactory, { filesPlugin } from '@tessera/plugin-files';
import { widgetsPlugin } from '@tessera/plugin-widgets';
import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, demoPlugin, loadConfig } from '../src/index.ts';
import { ALICE, testServer, waitFor } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A team's own plugin: ordering stock, with approval above ten units. */
const ordered: { item: string; quantity: number }[] = [];
const inventoryPlugin = definePlugin({
  id: 'inventory',
  tools: [
    createTool({
      id: 'inventory.order',
      description: 'Order stock from the supplier.',
      input: z.object({ item: z.string().min(1), quantity: z.number().int().positive() }),
      requireApproval: ({ input }) => ({
        required: input.quantity > 10,
        reason: `Ordering ${input.quantity} × ${input.item} needs your approval.`,
      }),
      invoke: ({ input }) => {
        ordered.push(input);
        return { ordered: input.quantity, item: input.item };
      },
    }),
  ],
});

const offered = (request: { tools: readonly { name: string }[] } | undefined) =>
  request?.tools.map((tool) => tool.name) ?? [];

/** Sends input over HTTP and waits until the prompt stops running. */
async function send(conversationId: string, input: string) {
  const sent = await t!.request('POST', `/api/conversations/${conversationId}/prompts`, { body: { input } });
  expect(sent.status).toBe(202);
  let prompt = sent.body.prompt;
  await waitFor(async () => {
    prompt = (await t!.request('GET', `/api/prompts/${prompt.id}`)).body;
    return prompt.state !== 'running';
  });
  return prompt;
}

describe('a server with an app’s own plugins', () => {
  it('runs the app’s tool through a send, with approval, next to the built-in plugins', async () => {
    ordered.length = 0;
    t = await testServer(
      [callTool('inventory.order', { item: 'bolts', quantity: 50 }), reply('Ordered 50 bolts.')],
      { plugins: [inventoryPlugin] },
    );
    const me = await t.request('GET', '/api/me');
    expect(me.body.plugins).toEqual([
      'widgets',
      'files',
      'triggers',
      'goals',
      'skills',
      'blueprints',
      'instructions',
      'doom-loop',
      'inventory',
    ]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const paused = await send(conversation.id, 'order 50 bolts');
    expect(paused.state).toBe('waiting_for_approval');
    expect(paused.output[0]).toMatchObject({
      toolId: 'inventory.order',
      result: { type: 'pending', reason: 'Ordering 50 × bolts needs your approval.' },
    });
    expect(ordered).toEqual([]);
    const { body: approvals } = await t.request('GET', '/api/approvals');
    expect(approvals.items.map((a: { toolId: string }) => a.toolId)).toEqual(['inventory.order']);

    expect((await t.request('POST', `/api/tool-calls/${paused.output[0].id}/approve`)).status).toBe(202);
    await waitFor(
      async () => (await t!.request('GET', `/api/prompts/${paused.id}`)).body.state === 'completed',
    );
    const { body: done } = await t.request('GET', `/api/prompts/${paused.id}`);
    expect(done.output.map((o: { type: string }) => o.type)).toEqual(['tool', 'text']);
    expect(done.output[0].result).toMatchObject({ type: 'success', output: { ordered: 50, item: 'bolts' } });
    expect(ordered).toEqual([{ item: 'bolts', quantity: 50 }]);
    expect(offered(t.model.requests[0])).toEqual(
      expect.arrayContaining(['inventory.order', 'trigger.create']),
    );
  });

  it('with defaultPlugins: false serves only the app’s plugins, and no routes of absent ones', async () => {
    t = await testServer([reply('Hello.')], { plugins: [inventoryPlugin], defaultPlugins: false });
    expect((await t.request('GET', '/api/me')).body.plugins).toEqual(['inventory']);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    await send(conversation.id, 'hi');
    expect(offered(t.model.requests[0])).toEqual(['inventory.order']);

    for (const path of [
      '/api/triggers',
      '/api/goals',
      `/api/conversations/${conversation.id}/goal`,
      '/api/skills',
      '/api/blueprints',
      '/api/mcp/servers',
      '/api/me/instructions',
      `/api/conversations/${conversation.id}/files/f1`,
    ]) {
      expect([path, (await t.request('GET', path)).status]).toEqual([path, 404]);
    }
    const { body: doc } = await t.request('GET', '/openapi.json', { token: null });
    expect(
      Object.keys(doc.paths).filter((path) => /triggers|goal|skills|blueprints|files|mcp/.test(path)),
    ).toEqual([]);
    expect(Object.keys(doc.paths)).toContain('/api/conversations/{id}/prompts');

    // Attachments need the files plugin: refused with a clear message, and no prompt starts.
    const form = new FormData();
    form.set('input', 'see attached');
    form.append('files', new File(['x'], 'x.txt'));
    const refused = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, { form });
    expect([refused.status, refused.body.error.message]).toEqual([
      400,
      'This server runs without the files plugin: it takes no files.',
    ]);
  });

  it('replaces a built-in plugin with the app’s plugin of the same id', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tessera-own-files-'));
    t = await testServer([reply('Got it.')], { plugins: [filesPlugin({ directory, maxFileBytes: 100 })] });
    expect((await t.request('GET', '/api/me')).body.plugins).toEqual([
      'widgets',
      'triggers',
      'goals',
      'skills',
      'blueprints',
      'instructions',
      'doom-loop',
      'files',
    ]);
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const path = `/api/conversations/${conversation.id}/prompts`;
    const small = new FormData();
    small.set('input', 'notes attached');
    small.append('files', new File(['# Notes'], 'notes.md', { type: 'text/markdown' }));
    expect((await t.request('POST', path, { form: small })).status).toBe(202);
    expect(await readdir(directory, { recursive: true })).not.toEqual([]); // the app's folder, not dataDir's
    const big = new FormData();
    big.set('input', 'too big for this app');
    big.append('files', new File(['x'.repeat(200)], 'big.txt'));
    expect((await t.request('POST', path, { form: big })).status).toBe(413); // the app's limit
    await rm(directory, { recursive: true, force: true });
  });

  it('closes the store and rejects with the plugin’s error when a plugin fails to start', async () => {
    let closes = 0;
    const store = Object.assign(createMemoryStore(), {
      close: async () => {
        closes++;
      },
    });
    const failing = definePlugin({
      id: 'ledger',
      start: () => {
        throw new Error('the ledger is locked');
      },
    });
    const dataDir = await mkdtemp(join(tmpdir(), 'tessera-failed-start-'));
    const error = await createServer({ dataDir, plugins: [failing], store, model: new ScriptedModel([]) })
      .catch((caught: unknown) => caught)
      .finally(() => rm(dataDir, { recursive: true, force: true }));
    expect(PluginError.is(error)).toBe(true);
    expect(error).toMatchObject({ pluginId: 'ledger', phase: 'start' });
    expect((error as Error).message).toBe("Plugin 'ledger' failed in start(): the ledger is locked");
    expect(closes).toBe(1);
  });

  it('refuses what is not a plugin, naming its place in the list', async () => {
    const error = await testServer([], {
      plugins: [
        inventoryPlugin,
        (() => inventoryPlugin) as never,
        filesPluginFactory as never,
        { ...inventoryPlugin },
      ],
    }).catch((caught: unknown) => caught);
    expect((error as Error).message.split('\n')).toEqual([
      'Not a plugin:',
      '  plugins[1] is a function, not a plugin: it is a plugin factory, call it (e.g. `myPlugin({ ... })`) and pass what it returns.',
      "  plugins[2] is the plugin factory of 'files', not a plugin: call it with its options and pass what it returns.",
      '  plugins[3] is an object with id, tools, state, stateVersion, outputs, requires, not a plugin: pass what definePlugin returns itself (a copy, e.g. { ...plugin }, has not been checked by it).',
    ]);
  });
});

describe('the demo tools', () => {
  it('are never offered to a model the app gives', async () => {
    t = await testServer([reply('Hello.')]);
    const me = await t.request('GET', '/api/me');
    expect(me.body.model).toMatchObject({ id: 'scripted', demo: false });
    expect(me.body.plugins).not.toContain('demo');
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    await send(conversation.id, 'what can you do?');
    const tools = offered(t.model.requests[0]);
    expect(tools).toContain('trigger.create'); // the built-in plugins are there
    expect(tools.filter((name) => name.startsWith('demo'))).toEqual([]);
  });

  it('are never offered to an OpenAI (or compatible) model', async () => {
    // As the command configures it from the environment; configuring the provider calls nothing.
    const cwd = await mkdtemp(join(tmpdir(), 'tessera-cwd-'));
    const { options } = await loadConfig({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, cwd });
    expect(options.openai).toMatchObject({ baseURL: 'http://127.0.0.1:9/v1' });
    t = await testServer('demo model', { openai: options.openai });
    const me = await t.request('GET', '/api/me', { token: ALICE });
    expect(me.body.model.demo).toBe(false);
    expect(me.body.plugins).toEqual([
      'widgets',
      'files',
      'triggers',
      'goals',
      'skills',
      'blueprints',
      'instructions',
      'doom-loop',
    ]);
  });

  it('need the widgets and files plugins: without them (defaultPlugins: false) the demo model comes alone', async () => {
    t = await testServer('demo model', { plugins: [inventoryPlugin], defaultPlugins: false });
    const me = await t.request('GET', '/api/me');
    expect(me.body.model).toMatchObject({ id: 'demo', demo: true });
    expect(me.body.plugins).toEqual(['inventory']);
    await t.close();
    const directory = await mkdtemp(join(tmpdir(), 'tessera-demo-files-'));
    t = await testServer('demo model', {
      plugins: [widgetsPlugin, filesPlugin({ directory })],
      defaultPlugins: false,
    });
    expect((await t.request('GET', '/api/me')).body.plugins).toEqual(['widgets', 'files', 'demo']);
    await rm(directory, { recursive: true, force: true });
    // Given by the app without them, the platform names what is missing.
    await expect(
      testServer([], { plugins: [inventoryPlugin, demoPlugin], defaultPlugins: false }),
    ).rejects.toThrow("Plugin 'demo' requires plugin 'widgets', which is not in this platform");
  });

  it('come with the demo model when no model is configured', async () => {
    t = await testServer('demo model');
    const me = await t.request('GET', '/api/me');
    expect(me.body.model).toMatchObject({ id: 'demo', demo: true });
    expect(me.body.plugins).toContain('demo');
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    // The demo model lists only the rules whose tools it is offered: these are the demo tools.
    const help = await send(conversation.id, 'help');
    const text = help.output.map((o: { text?: string }) => o.text ?? '').join('');
    for (const example of ['weather in Paris', 'make a sales report', 'delete records', 'transfer $50']) {
      expect(text).toContain(example);
    }
  });
});
