import { callTools, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createPlatform,
  createTool,
  definePlugin,
  MemoryStore,
  type Prompt,
  type PromptPatch,
  type PromptStore,
  type Store,
} from '../src/index.ts';

const userId = 'ada';

const lookup = definePlugin({
  id: 'x-lookup',
  tools: [
    createTool({
      id: 'lookup.find',
      description: 'Finds a word.',
      input: z.object({ word: z.string() }),
      invoke: async ({ input }) => ({ found: input.word }),
    }),
  ],
});

/** The prompt store's writes, in order, and the stored prompt's output ids when each output was published. */
function watched(inner: Store, prompts: PromptStore = inner.prompts) {
  const writes: string[] = [];
  const store: Store = {
    ...inner,
    prompts: new Proxy(prompts, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'update' || key === 'appendOutput') {
            const patch = args[1] as PromptPatch & { type?: string };
            writes.push(
              key === 'appendOutput' ? `append ${patch.type}` : Object.keys(patch).sort().join('+'),
            );
          }
          return value.apply(target, args);
        };
      },
    }),
  };
  return { store, writes };
}

/** A store written before `PromptPatch.append`: it would ignore the field, so it must never be sent one. */
function olderPromptStore(inner: PromptStore): PromptStore {
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'appendsInUpdate') return undefined;
      if (key === 'update') {
        return (id: string, patch: PromptPatch, options?: never) => {
          if (patch.append) throw new Error('an older store was sent `append`');
          return target.update(id, patch, options);
        };
      }
      return Reflect.get(target, key);
    },
  });
}

async function run(store: Store, model: ScriptedModel) {
  const platform = createPlatform({ plugins: [lookup], store, model });
  const conversation = await platform.conversations.create({ userId });
  const stored: string[][] = [];
  platform.events.subscribe({ conversationId: conversation.id }, (event) => {
    if (event.type !== 'prompt.output') return;
    // Read at once (the memory store answers from what it holds when called): stored before published?
    void store.prompts.get(event.promptId).then((p) => stored.push(p?.output.map((o) => o.id) ?? []));
  });
  const prompt = await platform.send({ conversationId: conversation.id, userId, input: 'Find "tile".' });
  return { prompt, stored, platform };
}

const toolThenText = () =>
  new ScriptedModel([callTools({ name: 'lookup.find', args: { word: 'tile' } }), reply('Found it.')]);

describe('a round is written in as few writes as the store allows, and nothing is published unwritten', () => {
  it('a text answer is one write: its text, usage and final state together', async () => {
    const { store, writes } = watched(new MemoryStore());
    const { prompt } = await run(store, new ScriptedModel([reply('Hello.')]));
    expect(prompt.state).toBe('completed');
    expect(writes).toEqual(['append+state+stopReason+updatedAt+usage']);
    expect(await store.prompts.get(prompt.id)).toEqual(prompt);
  });

  it("a tool round's usage goes with its call's first write; every output is stored before it is published", async () => {
    const { store, writes } = watched(new MemoryStore());
    const { prompt, stored } = await run(store, toolThenText());
    expect(writes).toEqual(['append+usage', 'outputs', 'append+state+stopReason+updatedAt+usage']);
    const kept = (await store.prompts.get(prompt.id)) as Prompt;
    expect(kept.output).toEqual(prompt.output);
    expect(kept.usage).toEqual(prompt.usage);
    expect(prompt.usage.modelCalls).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Each output was in the store when its event went out.
    expect(stored.map((ids) => ids.length)).toEqual([1, 2]);
  });

  it('a store that cannot append in an update gets each output appended, and loses nothing', async () => {
    const inner = new MemoryStore();
    const { store, writes } = watched(inner, olderPromptStore(inner.prompts));
    const { prompt, stored } = await run(store, toolThenText());
    expect(writes).toEqual([
      'append tool',
      'usage',
      'outputs',
      'append text',
      'state+stopReason+updatedAt+usage',
    ]);
    expect(((await store.prompts.get(prompt.id)) as Prompt).output).toEqual(prompt.output);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(stored.map((ids) => ids.length)).toEqual([1, 2]);
  });
});
