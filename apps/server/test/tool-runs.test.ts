import { definePlugin } from '@tessera/core';
import { keyValueWidget, widgetsPlugin } from '@tessera/plugin-widgets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attachEvents, BOB, testServer, waitFor } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;

/** A plugin author's plugin: notes kept in the conversation, a widget, a clear that needs approval, an undo once there is something to undo. */
const Notes = z.object({ notes: z.array(z.string()) }).default({ notes: [] });
const notesPlugin = definePlugin({
  id: 'notes',
  state: Notes,
  requires: ['widgets'],
  tools: ({ tool }) => [
    tool({
      id: 'notes.add',
      description: 'Adds a note.',
      input: z.object({ text: z.string().min(1), pinned: z.boolean().optional() }),
      invoke: async ({ input, state, displayWidget }) => {
        await state.update((s) => ({ notes: [...s.notes, input.text] }));
        const count = String(state.get().notes.length);
        await displayWidget(keyValueWidget, { title: 'Notes', items: [{ label: 'Count', value: count }] });
        return { count: state.get().notes.length };
      },
    }),
    tool({
      id: 'notes.clear',
      description: 'Deletes every note.',
      input: z.object({}),
      requireApproval: { required: true, reason: 'Clearing deletes every note.' },
      invoke: async ({ state }) => {
        const { notes } = state.get();
        await state.update(() => ({ notes: [] }));
        return { deleted: notes.length };
      },
    }),
  ],
  prepare: ({ state, tools, tool }) => {
    if (state.get().notes.length > 0)
      tools.push(
        tool({
          id: 'notes.undo',
          description: 'Removes the last note.',
          input: z.object({}),
          invoke: ({ state }) => state.update((s) => ({ notes: s.notes.slice(0, -1) })),
        }),
      );
  },
});

type Tool = { id: string; plugin: string; approval: string; inputSchema: Record<string, unknown> };

async function conversation(token?: string) {
  return (await t!.request('POST', '/api/conversations', { token, body: {} })).body.id as string;
}

/** Runs a tool over HTTP and waits until its prompt stops running. */
async function run(conversationId: string, body: unknown) {
  const sent = await t!.request('POST', `/api/conversations/${conversationId}/tool-runs`, { body });
  expect(sent.status, JSON.stringify(sent.body)).toBe(202);
  let prompt = sent.body.prompt;
  await waitFor(async () => {
    prompt = (await t!.request('GET', `/api/prompts/${prompt.id}`)).body;
    return prompt.state !== 'running';
  });
  return prompt;
}

describe('the tool runner', () => {
  // One server for the tests that share its limits: each works in conversations of its own.
  beforeAll(async () => {
    t = await testServer([], { plugins: [widgetsPlugin, notesPlugin], defaultPlugins: false });
  });
  afterAll(async () => t?.close());

  it('lists the tools the conversation offers the model, as its next prompt would have them', async () => {
    const id = await conversation();
    const { status, body } = await t!.request('GET', `/api/conversations/${id}/tools`);
    expect(status).toBe(200);
    const tools: Tool[] = body.items;
    expect(tools.map((tool) => tool.id)).toEqual(['notes.add', 'notes.clear']);
    expect(tools[0]).toEqual({
      id: 'notes.add',
      description: 'Adds a note.',
      plugin: 'notes',
      approval: 'never',
      readOnly: false,
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1 }, pinned: { type: 'boolean' } },
        required: ['text'],
      },
    });
    expect(tools[1]).toMatchObject({ id: 'notes.clear', approval: 'always' });
    // A tool a plugin offers from prepare(), once its state says so.
    await run(id, { toolId: 'notes.add', input: { text: 'milk' } });
    const after = (await t!.request('GET', `/api/conversations/${id}/tools`)).body.items as Tool[];
    expect(after.map((tool) => tool.id)).toContain('notes.undo');
  });

  it('runs a tool without approval: its outputs are recorded and streamed as the chat’s, and no model is asked', async () => {
    const id = await conversation();
    const { received: events } = await attachEvents(`${t!.url}/api/conversations/${id}/events`, {
      until: (event) => event.event === 'prompt.completed',
    });
    const before = t!.model.requests.length;
    const prompt = await run(id, { toolId: 'notes.add', input: { text: 'milk' }, timeZone: 'Europe/Paris' });
    expect(prompt).toMatchObject({
      state: 'completed',
      metadata: { toolRun: true, timeZone: 'Europe/Paris' },
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(prompt.input).toBeUndefined();
    expect(prompt.output.map((o: { type: string }) => o.type)).toEqual(['tool', 'widget']);
    expect(prompt.output[0]).toMatchObject({
      toolId: 'notes.add',
      input: { text: 'milk' },
      result: { type: 'success', output: { count: 1 } },
    });
    expect(t!.model.requests.length).toBe(before);
    const types = (await events).map((event) => event.event);
    expect(types).toEqual(
      expect.arrayContaining(['prompt.started', 'prompt.output', 'prompt.output-updated']),
    );
    expect(types.at(-1)).toBe('prompt.completed');
    // The conversation goes on with the model, which reads the run as any call and its result.
    t!.model.push({ text: 'You have one note.' });
    const sent = await t!.request('POST', `/api/conversations/${id}/prompts`, {
      body: { input: 'how many?' },
    });
    expect(sent.status).toBe(202);
    await waitFor(async () => t!.model.requests.length === before + 1);
    expect(t!.model.requests.at(-1)!.messages.map((m) => m.type)).toEqual([
      'function_call',
      'function_call_output',
      'message',
    ]);
  });

  it('runs a tool that needs approval: the prompt waits, is approved through the approvals route, and completes', async () => {
    const id = await conversation();
    const before = t!.model.requests.length;
    await run(id, { toolId: 'notes.add', input: { text: 'milk' } });
    const waiting = await run(id, { toolId: 'notes.clear' });
    expect(waiting.state).toBe('waiting_for_approval');
    expect(waiting.output[0]).toMatchObject({
      toolId: 'notes.clear',
      result: { type: 'pending', reason: 'Clearing deletes every note.' },
    });
    const { body: approvals } = await t!.request('GET', '/api/approvals');
    expect(approvals.items).toMatchObject([{ toolCallId: waiting.output[0].id, toolId: 'notes.clear' }]);
    // The approval card's schema comes from the same route as for the model's calls.
    const detail = await t!.request('GET', `/api/tool-calls/${waiting.output[0].id}`);
    expect(detail.body.inputSchema).toMatchObject({ type: 'object' });

    expect((await t!.request('POST', `/api/tool-calls/${waiting.output[0].id}/approve`)).status).toBe(202);
    let done = waiting;
    await waitFor(async () => {
      done = (await t!.request('GET', `/api/prompts/${waiting.id}`)).body;
      return done.state === 'completed';
    });
    expect(done.output).toMatchObject([
      { toolId: 'notes.clear', approval: { decision: 'approved' }, result: { output: { deleted: 1 } } },
    ]);
    expect(t!.model.requests.length).toBe(before);
  });

  it('refuses arguments its schema does not take (400, listing them), unknown tools and other users’ conversations (404)', async () => {
    const id = await conversation();
    const tools = `/api/conversations/${id}/tool-runs`;
    const bad = await t!.request('POST', tools, {
      body: { toolId: 'notes.add', input: { text: '', extra: 1 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_arguments');
    expect(bad.body.error.message).toContain("The arguments do not match the schema of 'notes.add'");
    expect(bad.body.error.message).toMatch(/at text/);
    expect((await t!.request('POST', tools, { body: { toolId: 'notes.add', input: [] } })).status).toBe(400);
    expect((await t!.request('POST', tools, { body: { input: {} } })).status).toBe(400);

    const unknown = await t!.request('POST', tools, { body: { toolId: 'notes.undo' } }); // not offered yet
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("offers no tool 'notes.undo'");

    const bobs = await conversation(BOB);
    const other = `/api/conversations/${bobs}`;
    expect((await t!.request('GET', `${other}/tools`)).status).toBe(404);
    const run = await t!.request('POST', `${other}/tool-runs`, {
      body: { toolId: 'notes.add', input: { text: 'x' } },
    });
    expect(run.status).toBe(404);
    expect((await t!.request('GET', `${other}/tools`, { token: null })).status).toBe(401);
    expect((await t!.request('GET', `/api/conversations/${bobs}`, { token: BOB })).body.prompts).toEqual([]);
    // Nothing ran.
    expect((await t!.request('GET', `/api/conversations/${id}`)).body.prompts).toEqual([]);
  });

  it('answers 409 while the conversation has a prompt running or waiting', async () => {
    const id = await conversation();
    await run(id, { toolId: 'notes.add', input: { text: 'milk' } });
    expect((await run(id, { toolId: 'notes.clear' })).state).toBe('waiting_for_approval');
    const busy = await t!.request('POST', `/api/conversations/${id}/tool-runs`, {
      body: { toolId: 'notes.add', input: { text: 'eggs' } },
    });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('conversation_busy');
  });
});

describe('a tool run is bounded like a send', () => {
  let own: typeof t;
  afterAll(async () => own?.close());

  it('arguments over maxInputChars as JSON are a 413; it counts as a prompt send for the rate limit', async () => {
    own = await testServer([], {
      plugins: [widgetsPlugin, notesPlugin],
      defaultPlugins: false,
      limits: { maxInputChars: 100 },
      rateLimits: { promptsPerUser: { max: 4, windowSeconds: 60 } },
    });
    const id = (await own.request('POST', '/api/conversations', { body: {} })).body.id as string;
    const path = `/api/conversations/${id}/tool-runs`;
    const send = (text: string) =>
      own!.request('POST', path, { body: { toolId: 'notes.add', input: { text } } });
    const long = await send('x'.repeat(100));
    expect(long.status).toBe(413);
    expect(long.body.error).toMatchObject({ code: 'input_too_large' });
    expect(long.body.error.message).toContain('The arguments, as JSON,');
    // Nested past what JSON.stringify can measure (it threw: a 500), or past 64 levels: a 400.
    for (const depth of [65, 100_000]) {
      const deep = `{"toolId":"notes.add","input":{"text":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      const nested = await own.request('POST', path, { raw: deep });
      expect([depth, nested.status, nested.body.error.code]).toEqual([depth, 400, 'invalid_request']);
    }
    expect((await send('milk')).status).toBe(202); // the limit counts the 413 too: the second send
    expect((await send('eggs')).status).toBe(429);
  });
});
