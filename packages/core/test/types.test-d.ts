// Type-level tests: checked by `tsc` in this package's typecheck task (tsconfig.json includes test/), which
// CI runs; a wrong type is a compile error there. Vitest does not run this file (it matches *.test.ts only).
import { type BadgeOutput, badgesPlugin } from '@tessera-fixtures/badges';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  createTool,
  definePlugin,
  definePluginFactory,
  isCall,
  type NewOutput,
  type Plugin,
  type PluginState,
  type PromptOutput,
  type PromptOutputType,
  type Tool,
  type ToolInput,
} from '../src/index.ts';

const Notes = z.object({ notes: z.array(z.string()).default([]) }).default({ notes: [] });
type Notes = { notes: string[] };

describe('createTool', () => {
  it('types input from the zod schema (its output, with defaults applied), state from `state`, and the result', () => {
    const input = z.object({
      text: z.string(),
      pinned: z.boolean().default(false),
      tags: z.array(z.string()).optional(),
    });
    const tool = createTool({
      id: 'notes.add',
      description: 'Add a note.',
      input,
      state: Notes,
      invoke: async ({ input, state }) => {
        expectTypeOf(input).toEqualTypeOf<{ text: string; pinned: boolean; tags?: string[] | undefined }>();
        expectTypeOf(state).toEqualTypeOf<PluginState<Notes>>();
        return { count: state.get().notes.length + 1 };
      },
    });
    type Args = Parameters<typeof tool.invoke>[0];
    expectTypeOf<Args['state']>().toEqualTypeOf<PluginState<Notes>>();
    expectTypeOf<Awaited<ReturnType<typeof tool.invoke>>>().toEqualTypeOf<{ count: number }>();
    expectTypeOf(tool).toEqualTypeOf<Tool<typeof input, Notes, { count: number }>>();
  });

  it('types state as unknown without `state`, and types requireApproval with the same input and state', () => {
    createTool({
      id: 'pay.send',
      description: 'Send money.',
      input: z.object({ amount: z.number() }),
      requireApproval: ({ input, state }) => {
        expectTypeOf(input).toEqualTypeOf<{ amount: number }>();
        expectTypeOf(state).toBeUnknown();
        return { required: input.amount > 100 };
      },
      invoke: ({ state }) => expectTypeOf(state).toEqualTypeOf<PluginState<unknown>>(),
    });
    createTool({
      id: 'pay.send',
      description: 'Send money.',
      input: z.object({ amount: z.number() }),
      // @ts-expect-error amount is a number, not a string
      invoke: ({ input }) => input.amount.toUpperCase(),
    });
  });
});

describe("a plugin's bound `tool` helper", () => {
  it('types state from the plugin state, in tools: ({ tool }) => [...] and in prepare()', () => {
    const plugin = definePlugin({
      id: 'notes',
      state: Notes,
      tools: ({ tool }) => [
        tool({
          id: 'notes.clear',
          description: 'Clear.',
          input: z.object({ confirm: z.boolean() }),
          requireApproval: ({ state }) => ({ required: state.notes.length > 0 }),
          invoke: async ({ input, state }) => {
            expectTypeOf(input).toEqualTypeOf<{ confirm: boolean }>();
            expectTypeOf(state.get()).toEqualTypeOf<Notes>();
            // @ts-expect-error the state has notes, not items
            await state.set({ items: [] });
            return state.set({ notes: [] });
          },
        }),
      ],
      prepare: ({ tool, tools }) => {
        tools.push(
          tool({
            id: 'notes.count',
            description: 'Count.',
            input: z.object({}),
            invoke: ({ state }) => state.get().notes.length,
          }),
        );
      },
    });
    expectTypeOf(plugin).toEqualTypeOf<Plugin<Notes>>();
  });

  it('types state from the schema of a versioned state', () => {
    const plugin = definePlugin({
      id: 'notes',
      state: { schema: Notes, version: 2, migrate: (stored) => stored },
      tools: ({ tool }) => [
        tool({
          id: 'notes.first',
          description: 'First note.',
          input: z.object({}),
          invoke: ({ state }) => {
            expectTypeOf(state.get()).toEqualTypeOf<Notes>();
            return state.get().notes[0];
          },
        }),
      ],
    });
    expectTypeOf(plugin.state).toEqualTypeOf<z.ZodType<Notes>>();
  });

  it('takes no `state` of its own', () => {
    definePlugin({
      id: 'notes',
      state: Notes,
      tools: ({ tool }) => [
        // @ts-expect-error the bound helper adds the plugin's state itself
        tool({ id: 'x.y', description: 'd', input: z.object({}), state: Notes, invoke: () => 1 }),
      ],
    });
  });
});

describe('definePluginFactory', () => {
  const acme = definePluginFactory({
    id: 'acme',
    options: z.object({
      apiKey: z.string(),
      region: z.enum(['eu', 'us']).default('eu'),
      retries: z.number().optional(),
    }),
    env: { apiKey: 'ACME_API_KEY' },
    create: (options) => {
      expectTypeOf(options).toEqualTypeOf<{
        apiKey: string;
        region: 'eu' | 'us';
        retries?: number | undefined;
      }>();
      return definePlugin({ id: 'acme', state: Notes });
    },
  });

  it('takes the schema input, with the options an environment variable gives optional, and returns the plugin', () => {
    expectTypeOf<Parameters<typeof acme>[0]>().toEqualTypeOf<
      | { apiKey?: string | undefined; region?: 'eu' | 'us' | undefined; retries?: number | undefined }
      | undefined
    >();
    expectTypeOf(acme()).toEqualTypeOf<Plugin<Notes>>();
    expectTypeOf(acme.id).toBeString();
    // @ts-expect-error no such region
    acme({ region: 'mars' });
  });

  it('requires the options argument while a required option has no environment variable', () => {
    const strict = definePluginFactory({
      id: 'strict',
      options: z.object({ directory: z.string(), maxBytes: z.number().default(1024) }),
      create: () => definePlugin({ id: 'strict' }),
    });
    expectTypeOf<Parameters<typeof strict>>().toEqualTypeOf<
      [options: { directory: string; maxBytes?: number | undefined }]
    >();
    // @ts-expect-error directory is required
    strict();
    strict({ directory: '/tmp' });
  });
});

describe('output variants added by declaration merging', () => {
  it("puts a plugin's variants into PromptOutput, narrowed by type, and checks the outputs tools emit", () => {
    void badgesPlugin;
    expectTypeOf<Extract<PromptOutput, { type: 'x-badges.badge' }>>().toEqualTypeOf<BadgeOutput>();
    expectTypeOf<'x-badges.badge'>().toExtend<PromptOutputType>();
    const output = {} as PromptOutput;
    if (output.type === 'x-badges.badge')
      expectTypeOf(output.level).toEqualTypeOf<'bronze' | 'silver' | 'gold'>();
    expectTypeOf<{ type: 'x-badges.badge'; label: string; level: 'gold' }>().toExtend<NewOutput>();
    // @ts-expect-error no such level
    const wrong: NewOutput = { type: 'x-badges.badge', label: 'First', level: 'platinum' };
    void wrong;
    // ...and the tool input helper the fixture plugin adds.
    expectTypeOf<ToolInput<unknown>['awardBadge']>().toEqualTypeOf<
      (label: string, level: BadgeOutput['level']) => Promise<string>
    >();
  });
});

describe('isCall in hooks and permission policies', () => {
  const pay = createTool({
    id: 'pay.send',
    description: 'Send money.',
    input: z.object({ to: z.string(), amount: z.number(), memo: z.string().default('') }),
    invoke: () => 'sent',
  });

  it("types a call's input by the tool's schema, with no cast", () => {
    definePlugin({
      id: 'limits',
      state: Notes,
      hooks: {
        beforeToolCall: ({ call }) => {
          expectTypeOf(call.input).toBeUnknown();
          if (!isCall(call, pay)) return undefined;
          expectTypeOf(call.input).toEqualTypeOf<{ to: string; amount: number; memo: string }>();
          return call.input.amount > 100 ? { requireApproval: 'A large payment.' } : undefined;
        },
        afterToolCall: ({ call }) => {
          if (isCall(call, pay)) expectTypeOf(call.input.to).toBeString();
          return undefined;
        },
      },
      permissions: ({ call }) => (isCall(call, pay) && call.input.to === 'eve' ? 'deny' : undefined),
    });
  });

  it('takes only tools', () => {
    const call = { id: 'call_1', toolId: 'pay.send', input: {} as unknown };
    // @ts-expect-error a tool id is not a tool
    isCall(call, 'pay.send');
  });
});
