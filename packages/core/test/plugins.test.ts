import { callTool, createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CONTEXT_ORDER,
  createPlatform,
  createTool,
  DefinitionError,
  defineOutput,
  definePlugin,
  MemoryStore,
  StoreToken,
  type ToolOutput,
} from '../src/index.ts';

const SkillsState = z.object({ active: z.array(z.string()).default([]) }).default({ active: [] });

/** A miniature skills plugin: `email.*` tools appear only while the email skill is active. */
function skillsLike() {
  const prepared: number[] = [];
  const activate = createTool({
    id: 'skills.activate',
    description: 'Activate a skill.',
    input: z.object({ name: z.enum(['email']) }),
    state: SkillsState,
    invoke: async ({ input, state }) => {
      await state.update((s) => ({ active: [...new Set([...s.active, input.name])] }));
      return { active: state.get().active };
    },
  });
  const send = createTool({
    id: 'email.send',
    description: 'Send an email.',
    input: z.object({ to: z.string() }),
    invoke: ({ input }) => ({ sent: input.to }),
  });
  const plugin = definePlugin({
    id: 'skills',
    state: SkillsState,
    tools: [activate],
    prepare: ({ state, tools, context, round }) => {
      prepared.push(round);
      context.push({ text: 'Skills: email (send emails).', order: CONTEXT_ORDER.stable });
      if (state.get().active.includes('email')) {
        tools.push(send);
        context.push({ text: 'The email skill is active.', order: CONTEXT_ORDER.volatile });
      }
    },
  });
  return { plugin, prepared };
}

describe('plugins', () => {
  it('prepare() runs before every model call, and tools activated in one round are offered in the next', async () => {
    const { plugin, prepared } = skillsLike();
    const t = await createTestPlatform({
      plugins: [plugin],
      instructions: 'You are a helpful assistant.',
      script: [
        callTool('skills.activate', { name: 'email' }),
        callTool('email.send', { to: 'a@b.c' }),
        reply('Sent.'),
      ],
    });
    const prompt = await t.send('email a@b.c');
    expect(prompt.state).toBe('completed');
    expect(prepared).toEqual([0, 1, 2]);
    expect(t.model.requests.map((r) => r.tools.map((tool) => tool.name))).toEqual([
      ['skills.activate'],
      ['skills.activate', 'email.send'],
      ['skills.activate', 'email.send'],
    ]);
    expect(t.model.requests[0]?.instructions).toBe(
      'You are a helpful assistant.\n\nSkills: email (send emails).',
    );
    expect(t.model.requests[1]?.instructions).toBe(
      'You are a helpful assistant.\n\nSkills: email (send emails).\n\nThe email skill is active.',
    );
  });

  it('offers each round exactly the tools prepare() gave, also when one is swapped for another or withdrawn', async () => {
    const tool = (id: string) =>
      createTool({ id, description: `Tool ${id}.`, input: z.object({}), invoke: () => id });
    const [a, b, c] = [tool('t.a'), tool('t.b'), tool('t.c')];
    const offers = [[a, b], [a, c], [a], [a, c], [a, c]];
    const plugin = definePlugin({
      id: 'swapping',
      prepare: ({ tools, round }) => {
        tools.push(...(offers[round] ?? []));
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('t.b'), callTool('t.c'), callTool('t.c'), callTool('t.c'), reply('Done.')],
    });
    const prompt = await t.send('go');
    expect(t.model.requests.map((r) => r.tools.map((definition) => definition.name))).toEqual(
      offers.map((tools) => tools.map((offered) => offered.id)),
    );
    const results = prompt.output.filter((o): o is ToolOutput => o.type === 'tool').map((o) => o.result);
    expect(results.map((r) => r?.type)).toEqual(['success', 'success', 'error', 'success']);
    expect(results[2]).toMatchObject({ error: { code: 'unknown_tool' } }); // withdrawn in that round
  });

  it('persists plugin state with the conversation, per plugin, across prompts and platform instances', async () => {
    const store = new MemoryStore();
    const { plugin } = skillsLike();
    const other = definePlugin({
      id: 'other',
      state: z.object({ n: z.number().default(7) }).default({ n: 7 }),
    });
    const a = createPlatform({
      plugins: [plugin, other],
      store,
      model: new ScriptedModel([callTool('skills.activate', { name: 'email' }), reply('ok')]),
    });
    const conversation = await a.conversations.create({ userId: 'u' });
    await a.send({ conversationId: conversation.id, userId: 'u', input: 'activate' });
    expect((await store.conversations.get(conversation.id))?.pluginState).toEqual({
      skills: { active: ['email'] },
    });

    const model = new ScriptedModel([reply('still here')]);
    const b = createPlatform({ plugins: [skillsLike().plugin, other], store, model });
    await b.send({ conversationId: conversation.id, userId: 'u', input: 'next' });
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toContain('email.send');
    const state = await b.pluginState(conversation.id, other);
    expect(state.get()).toEqual({ n: 7 });
  });

  it('validates state on write (a tool error) and on read (a failed prompt, naming the plugin)', async () => {
    const Counter = z.object({ n: z.number().int().min(0).default(0) }).default({ n: 0 });
    const bad = createTool({
      id: 'counter.break',
      description: 'Writes a bad state.',
      input: z.object({}),
      state: Counter,
      invoke: async ({ state }) => {
        await state.set({ n: -1 });
      },
    });
    const counter = definePlugin({
      id: 'counter',
      state: Counter,
      tools: [bad],
      prepare: ({ state, context }) => void context.push({ text: `Count: ${state.get().n}` }),
    });
    const store = new MemoryStore();
    const t = await createTestPlatform({
      plugins: [counter],
      store,
      script: [callTool('counter.break'), reply('hm')],
    });
    const prompt = await t.send('go');
    const call = prompt.output[0] as ToolOutput;
    expect(call.result).toMatchObject({ type: 'error', error: { code: 'tool_failed' } });
    expect(JSON.stringify(call.result)).toContain("Plugin 'counter'");

    await store.conversations.setPluginState(t.conversation.id, 'counter', { n: 'corrupt' });
    const failed = await t.send('again');
    expect(failed.state).toBe('failed');
    expect(failed.stopReason?.code).toBe('plugin_state_invalid');
    expect(failed.stopReason?.message).toContain("Plugin 'counter'");
  });

  it('lets a plugin register services that tools resolve from the container', async () => {
    const GREETER = Symbol('greeter');
    const greet = createTool({
      id: 'greet.hello',
      description: 'Greets.',
      input: z.object({ name: z.string() }),
      invoke: ({ input, services }) =>
        services.resolve<{ greet(n: string): string }>(GREETER).greet(input.name),
    });
    const plugin = definePlugin({
      id: 'greet',
      tools: [greet],
      services: (container) =>
        container.register(GREETER, { useValue: { greet: (n: string) => `Hello, ${n}!` } }),
    });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('greet.hello', { name: 'Ada' }), reply('ok')],
    });
    const prompt = await t.send('hi');
    expect((prompt.output[0] as ToolOutput).result).toEqual({ type: 'success', output: 'Hello, Ada!' });
  });

  it('lets plugins clean up for a deleted conversation first; a failure keeps it for a retry', async () => {
    const seen: string[] = [];
    let failing = true;
    const archive = definePlugin({
      id: 'archive',
      conversationDeleted: async ({ conversationId, userId, services }) => {
        // The conversation is still there while plugins clean up.
        expect(await t.platform.conversations.get(conversationId, userId)).toBeDefined();
        expect(services.isRegistered(StoreToken)).toBe(true);
        seen.push(`archive ${conversationId} ${userId}`);
      },
    });
    const flaky = definePlugin({
      id: 'flaky',
      conversationDeleted: () => {
        if (failing) throw new Error('the disk is full');
        seen.push('flaky');
      },
    });
    const t = await createTestPlatform({ plugins: [archive, flaky], script: [reply('hi')] });
    await t.send('hello');
    const { id } = t.conversation;
    await expect(t.platform.conversations.delete(id, t.userId)).rejects.toThrow('the disk is full');
    expect((await t.platform.conversations.prompts(id, t.userId)).length).toBe(1);
    failing = false;
    await t.platform.conversations.delete(id, t.userId);
    expect(seen).toEqual([`archive ${id} ${t.userId}`, `archive ${id} ${t.userId}`, 'flaky']);
    await expect(t.platform.conversations.get(id, t.userId)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('fails the prompt with the plugin named when prepare() throws', async () => {
    const broken = definePlugin({
      id: 'broken',
      prepare: () => {
        throw new Error('index missing');
      },
    });
    const t = await createTestPlatform({ plugins: [broken], script: [reply('never')] });
    const prompt = await t.send('hi');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason).toEqual({
      code: 'plugin_error',
      message: "Plugin 'broken' failed in prepare(): index missing",
    });
    expect(t.model.requests).toHaveLength(0);
  });
});

describe('definition errors name what is wrong', () => {
  const tool = (id: string) => createTool({ id, description: 'd', input: z.object({}), invoke: () => null });

  it('rejects duplicate plugin ids and duplicate tool ids across plugins at start-up', () => {
    const model = new ScriptedModel();
    expect(() =>
      createPlatform({ model, plugins: [definePlugin({ id: 'a' }), definePlugin({ id: 'a' })] }),
    ).toThrow("Two plugins have the id 'a'.");
    expect(() =>
      createPlatform({
        model,
        plugins: [
          definePlugin({ id: 'a', tools: [tool('x.y')] }),
          definePlugin({ id: 'b', tools: [tool('x.y')] }),
        ],
      }),
    ).toThrow("Tool id 'x.y' is defined twice: by plugin 'a' and by plugin 'b'.");
  });

  it('fails the prompt when two plugins offer the same tool id in one round', async () => {
    const a = definePlugin({ id: 'a', prepare: ({ tools }) => void tools.push(tool('dup.tool')) });
    const b = definePlugin({ id: 'b', prepare: ({ tools }) => void tools.push(tool('dup.tool')) });
    const t = await createTestPlatform({ plugins: [a, b], script: [reply('never')] });
    const prompt = await t.send('hi');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason?.message).toBe(
      "Tool id 'dup.tool' is offered twice in one round: by plugin 'a' and by plugin 'b'.",
    );
  });

  it('rejects bad tool definitions when they are created', () => {
    const base = { description: 'd', input: z.object({}), invoke: () => null };
    expect(() => createTool({ ...base, id: 'has space' })).toThrow(DefinitionError);
    expect(() => createTool({ ...base, id: 'ok.id', description: ' ' })).toThrow('a description is required');
    expect(() => createTool({ ...base, id: 'ok.id', input: z.string() as never })).toThrow(
      'must be a zod object schema',
    );
    expect(() => createTool({ ...base, id: 'ok.id', input: z.object({ when: z.date() }) })).toThrow(
      "Tool 'ok.id': its input schema cannot be expressed as JSON Schema",
    );
    expect(() => createTool({ ...base, id: 'ok.id', timeoutMs: -1 })).toThrow('timeoutMs');
  });

  it('rejects plugin state without a default, and bad or duplicate output variants', () => {
    expect(() => definePlugin({ id: 'p', state: z.object({ n: z.number() }) })).toThrow(
      'must accept a missing state',
    );
    expect(() => definePlugin({ id: 'Bad Id' })).toThrow(DefinitionError);
    expect(() => defineOutput({ type: 'note', fields: { id: z.string() }, project: 'skip' })).toThrow(
      "field 'id'",
    );
    expect(() => defineOutput({ type: 'Not Valid', fields: {}, project: 'skip' })).toThrow(DefinitionError);
    const note = defineOutput({ type: 'note', fields: { text: z.string() }, project: 'skip' });
    expect(() =>
      createPlatform({
        model: new ScriptedModel(),
        plugins: [definePlugin({ id: 'a', outputs: [note] }), definePlugin({ id: 'b', outputs: [note] })],
      }),
    ).toThrow("Output type 'note' is registered twice: by 'a' and by 'b'.");
    expect(() =>
      createPlatform({
        model: new ScriptedModel(),
        plugins: [
          definePlugin({ id: 'a', outputs: [defineOutput({ type: 'text', fields: {}, project: 'skip' })] }),
        ],
      }),
    ).toThrow("by 'core' and by 'a'");
  });
});
