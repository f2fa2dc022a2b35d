import { definePlugin } from '@tessera/core';
import { keyValueWidget } from '@tessera/plugin-widgets';
import { z } from 'zod';

/** A plugin's tools: a note added (shown as a widget), and every note cleared, which needs approval. */
export const notes = definePlugin({
  id: 'notes',
  state: z.object({ notes: z.array(z.string()) }).default({ notes: [] }),
  requires: ['widgets'],
  tools: ({ tool }) => [
    tool({
      id: 'notes.add',
      description: 'Adds a note.',
      input: z.object({ text: z.string().min(1) }),
      invoke: async ({ input, state, displayWidget }) => {
        await state.update((s) => ({ notes: [...s.notes, input.text] }));
        await displayWidget(keyValueWidget, {
          title: 'Notes',
          items: [{ label: 'Latest', value: input.text }],
        });
        return { count: state.get().notes.length };
      },
    }),
    tool({
      id: 'notes.clear',
      description: 'Deletes every note.',
      input: z.object({ reason: z.string() }),
      requireApproval: { required: true, reason: 'Clearing deletes every note.' },
      invoke: async ({ state }) => {
        const { notes } = state.get();
        await state.update(() => ({ notes: [] }));
        return { deleted: notes.length };
      },
    }),
  ],
});
