import { createTool, definePlugin, ModelError, type ModelRequest } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assertWellFormed,
  callTool,
  createTestPlatform,
  invokeTool,
  reply,
  ScriptedModel,
  seedState,
} from '../src/index.ts';

const request: ModelRequest = {
  model: 'normal',
  modelClass: 'normal',
  instructions: '',
  messages: [],
  tools: [],
};
const collect = async (model: ScriptedModel) => {
  const events = [];
  for await (const event of model.stream(request, new AbortController().signal)) events.push(event);
  return events;
};

describe('ScriptedModel', () => {
  it('answers turn by turn, streams text chunks, records requests and calls', async () => {
    const model = new ScriptedModel([reply(['a', 'b']), callTool('x.y', { n: 1 }, 'c1')]);
    expect((await collect(model)).map((e) => e.type)).toEqual([
      'text-delta',
      'text-delta',
      'usage',
      'finish',
    ]);
    expect(await collect(model)).toContainEqual({
      type: 'tool-call',
      callId: 'c1',
      name: 'x.y',
      arguments: '{"n":1}',
    });
    expect(model.requests).toHaveLength(2);
    expect(model.calls).toEqual([{ callId: 'c1', name: 'x.y', arguments: '{"n":1}' }]);
    expect(model.remaining).toBe(0);
  });

  it('clears the turns not played yet, and plays what is pushed after', async () => {
    const model = new ScriptedModel([reply('left over'), reply('also left')]);
    expect(model.clear().remaining).toBe(0);
    await expect(collect(model)).rejects.toThrow('no turn left');
    model.push(reply('fresh'));
    expect(await collect(model)).toContainEqual({ type: 'text-delta', delta: 'fresh' });
  });

  it('fails clearly when the script runs out, or when a turn says so', async () => {
    await expect(collect(new ScriptedModel())).rejects.toThrow('no turn left');
    await expect(collect(new ScriptedModel([{ error: 'overloaded' }]))).rejects.toBeInstanceOf(ModelError);
  });

  it('breaks a stream halfway when told to: what came before the break was streamed', async () => {
    const model = new ScriptedModel([
      { text: ['a', 'b'], toolCalls: [{ name: 'x.y', id: 'c1' }], breakAfter: 3 },
      { text: 'a', breakAfter: 0, error: new ModelError('overloaded', { kind: 'server' }) },
    ]);
    const events: unknown[] = [];
    const failed = await (async () => {
      for await (const event of model.stream(request, new AbortController().signal)) events.push(event);
    })().catch((error: unknown) => error);
    expect(events.map((e) => (e as { type: string }).type)).toEqual([
      'text-delta',
      'text-delta',
      'tool-call',
    ]);
    expect(failed).toMatchObject({ kind: 'connection', retryable: true });
    expect(model.calls.map((c) => c.callId)).toEqual(['c1']);
    await expect(collect(model)).rejects.toMatchObject({ message: 'overloaded', kind: 'server' });
  });

  it('can answer from what it was sent, and honours abort during a delay', async () => {
    const model = new ScriptedModel([
      (r) => reply(`I saw ${r.messages.length} messages`),
      reply('late', { delayMs: 10_000 }),
    ]);
    expect(await collect(model)).toContainEqual({ type: 'text-delta', delta: 'I saw 0 messages' });
    const controller = new AbortController();
    const pending = (async () => {
      for await (const _ of model.stream(request, controller.signal)) {
        /* drain */
      }
    })();
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('helpers', () => {
  const Counter = z.object({ n: z.number() }).default({ n: 0 });
  const counter = createTool({
    id: 'count.add',
    description: 'Adds to a counter.',
    input: z.object({ by: z.number().int().default(1) }),
    state: Counter,
    invoke: async ({ input, state }) => {
      await state.update((s) => ({ n: s.n + input.by }));
      return state.get().n;
    },
  });

  it('invokeTool runs one tool with validated input and state, without a model', async () => {
    expect(await invokeTool(counter, { input: {}, state: { n: 1 } })).toMatchObject({
      result: { type: 'success', output: 2 },
      state: { n: 2 },
    });
    expect((await invokeTool(counter, { input: { by: 'x' }, state: { n: 1 } })).result).toMatchObject({
      type: 'error',
      error: { code: 'invalid_arguments' },
    });
  });

  it('createTestPlatform gives a ready conversation on a scripted model', async () => {
    const plugin = definePlugin({ id: 'count', state: Counter, tools: [counter] });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [callTool('count.add', { by: 2 }), reply('2')],
    });
    const prompt = await t.send('add 2');
    expect(prompt.state).toBe('completed');
    expect((await t.platform.pluginState(t.conversation.id, plugin)).get()).toEqual({ n: 2 });
  });

  it('reads what the model read: a call, its result and the user, one a line; toolError reads a failed call', async () => {
    const fails = createTool({
      id: 'x.fail',
      description: 'Fails.',
      input: z.object({ n: z.number() }),
      invoke: () => {
        throw new Error('no');
      },
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'x', tools: [fails] })],
      script: [callTool('x.fail', { n: 1 }), reply('Sorry.'), reply('Hi.')],
      instructions: 'Be brief.',
    });
    const prompt = await t.send('Try');
    expect(t.model.read(0)).toBe('instructions: Be brief.\nuser: Try');
    expect(t.model.read()).toMatch(/^user: Try\ncall x\.fail \{"n":1\}\nresult: .*no/m);
    expect(t.toolError(prompt, fails)).toEqual({ code: 'tool_failed', message: 'no' });
    const hello = await t.send('Hello');
    expect(() => t.toolError(hello, 'x.fail')).toThrow("Expected one call of 'x.fail', found 0.");
    expect(() => t.model.read(3)).toThrow('it was called 3 times');
  });

  it('seedState stores state as an older version wrote it, and the next read migrates it', async () => {
    const Notes = z.object({ notes: z.array(z.object({ text: z.string() })) }).default({ notes: [] });
    const notes = definePlugin({
      id: 'notes',
      state: {
        schema: Notes,
        version: 2,
        migrate: (old) => ({ notes: (old as string[]).map((text) => ({ text })) }),
      },
    });
    const t = await createTestPlatform({ plugins: [notes] });
    await t.seedState(notes, { version: 1, state: ['milk'] });
    expect(await t.state(notes)).toEqual({ notes: [{ text: 'milk' }] });
    expect((await t.platform.store.conversations.get(t.conversation.id))?.pluginState.notes).toEqual({
      $version: 2,
      value: { notes: [{ text: 'milk' }] },
    });
    await expect(seedState(t.platform, 'conv_none', notes, { version: 1, state: [] })).rejects.toThrow(
      'There is no conversation conv_none',
    );
    await expect(t.seedState(notes, { version: -1, state: [] })).rejects.toThrow('whole number from 0');
  });

  it('assertWellFormed rejects calls without outputs and outputs without calls', () => {
    const call = { type: 'function_call', callId: 'a', name: 'x', arguments: '{}' } as const;
    const output = { type: 'function_call_output', callId: 'a', output: 'ok' } as const;
    expect(() => assertWellFormed([call, output])).not.toThrow();
    expect(() => assertWellFormed([call])).toThrow('without an output');
    expect(() => assertWellFormed([output])).toThrow('no open call');
    expect(() => assertWellFormed([call, output, call, output])).toThrow('used twice');
  });
});
