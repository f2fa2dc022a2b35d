import { definePlugin } from '@tessera/core';
import { z } from 'zod';

const Item = z.object({ id: z.number().int(), title: z.string() });
// The plugin's state, per conversation, validated and stored with it: give it a default.
const List = z.object({ items: z.array(Item).default([]) }).default({ items: [] });

/**
 * The __PLUGIN_ID__ plugin: a list per conversation, which the model adds to, reads before each of its calls,
 * and may clear once the user approves.
 */
export const __PLUGIN_EXPORT__ = definePlugin({
  id: '__PLUGIN_ID__', // keys its state in every conversation: never change it
  core: '__CORE_RANGE__', // the @tessera/core versions it works with (as in peerDependencies)
  state: List,
  // `tool` is createTool bound to this plugin's state: `state` is typed.
  tools: ({ tool }) => [
    tool({
      id: '__PLUGIN_ID__.add',
      description: 'Adds an item to the list of this conversation. Returns its number.',
      input: z.object({ title: z.string().min(1).max(200).describe('What to add') }),
      invoke: async ({ input, state }) => {
        const id = Math.max(0, ...state.get().items.map((item) => item.id)) + 1;
        await state.update(({ items }) => ({ items: [...items, { id, title: input.title }] }));
        return { id };
      },
    }),
    tool({
      id: '__PLUGIN_ID__.clear',
      description: 'Removes every item of the list.',
      input: z.object({}),
      requireApproval: ({ state }) => ({
        required: state.items.length > 0,
        reason: `This removes ${state.items.length} item(s).`,
      }),
      invoke: ({ state }) => state.set({ items: [] }),
    }),
  ],
  // Before every model call: what the model reads besides the conversation.
  prepare: ({ state, context }) => {
    const { items } = state.get();
    const list = items.map((item) => `#${item.id} ${item.title}`).join('; ');
    context.push({ text: `The __PLUGIN_ID__ list of this conversation: ${list || 'empty'}.` });
  },
});

// A config file that names the package ('__PLUGIN_PACKAGE__') gets this.
export default __PLUGIN_EXPORT__;
