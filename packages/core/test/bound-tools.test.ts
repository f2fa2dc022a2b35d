import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTool, DefinitionError, definePlugin, type ToolOutput } from '../src/index.ts';

const Cart = z.object({ items: z.array(z.string()).default([]) }).default({ items: [] });

describe("tools typed with their plugin's state", () => {
  it('gives tools: ({ tool }) => [...] a createTool bound to the plugin state, and prepare() the same helper', async () => {
    const cart = definePlugin({
      id: 'cart',
      state: Cart,
      tools: ({ tool }) => [
        tool({
          id: 'cart.add',
          description: 'Add an item.',
          input: z.object({ item: z.string() }),
          invoke: async ({ input, state }) => {
            await state.update((s) => ({ items: [...s.items, input.item] }));
            return state.get().items;
          },
        }),
      ],
      // A tool that exists only while the cart has items, made per round with the same helper.
      prepare: ({ state, tools, tool }) => {
        if (state.get().items.length === 0) return;
        tools.push(
          tool({
            id: 'cart.checkout',
            description: 'Buy what is in the cart.',
            input: z.object({}),
            requireApproval: ({ state }) => ({ required: state.items.length > 1, reason: 'Several items.' }),
            invoke: async ({ state }) => {
              const bought = state.get().items;
              await state.set({ items: [] });
              return { bought };
            },
          }),
        );
      },
    });
    const t = await createTestPlatform({
      plugins: [cart],
      script: [callTool('cart.add', { item: 'tea' }), callTool('cart.checkout'), reply('Bought.')],
    });
    const prompt = await t.send('buy tea');
    const results = prompt.output.filter((o): o is ToolOutput => o.type === 'tool').map((o) => o.result);
    expect(results).toEqual([
      { type: 'success', output: ['tea'] },
      { type: 'success', output: { bought: ['tea'] } },
    ]);
    expect(t.model.requests.map((r) => r.tools.map((tool) => tool.name))).toEqual([
      ['cart.add'],
      ['cart.add', 'cart.checkout'],
      ['cart.add'],
    ]);
  });

  it("accepts a tool that passes its plugin's own state schema, of a plain or a versioned state", () => {
    const tool = createTool({
      id: 'cart.peek',
      description: 'd',
      input: z.object({}),
      state: Cart,
      invoke: () => 1,
    });
    expect(() => definePlugin({ id: 'cart', state: Cart, tools: [tool] })).not.toThrow();
    const versioned = { schema: Cart, version: 2, migrate: (stored: unknown) => stored };
    expect(() => definePlugin({ id: 'cart', state: versioned, tools: [tool] })).not.toThrow();
  });

  it('refuses, when the plugin is defined, a tool whose state schema is not the plugin schema object (even if equal)', () => {
    // The same shape written twice: two objects. Before, this passed definePlugin and failed every prompt.
    const Copy = z.object({ items: z.array(z.string()).default([]) }).default({ items: [] });
    const peek = createTool({
      id: 'cart.peek',
      description: 'd',
      input: z.object({}),
      state: Copy,
      invoke: () => 1,
    });
    const define = () => definePlugin({ id: 'cart', state: Cart, tools: [peek] });
    expect(define).toThrow(DefinitionError);
    expect(define).toThrow(
      "Tool 'cart.peek' declares a state schema that is not the one of plugin 'cart', which offers it",
    );
    expect(() => definePlugin({ id: 'stateless', tools: [peek] })).toThrow(
      "not the one of plugin 'stateless'",
    );
  });

  it('fails the prompt, naming the tool and the plugin, when prepare() offers a tool typed with another state', async () => {
    const Other = z.object({ n: z.number().default(0) }).default({ n: 0 });
    const foreign = createTool({
      id: 'other.tool',
      description: 'd',
      input: z.object({}),
      state: Other,
      invoke: () => 1,
    });
    const plugin = definePlugin({
      id: 'cart',
      state: Cart,
      prepare: ({ tools }) => void tools.push(foreign),
    });
    const t = await createTestPlatform({ plugins: [plugin], script: [reply('never')] });
    const prompt = await t.send('hi');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason?.code).toBe('definition_error');
    expect(prompt.stopReason?.message).toContain(
      "Tool 'other.tool' declares a state schema that is not the one of plugin 'cart', which offers it",
    );
    expect(t.model.requests).toHaveLength(0);
  });
});
