import { CONTEXT_ORDER, createTool, definePlugin } from '@tessera/core';
import { z } from 'zod';

const NotesState = z.object({ notes: z.array(z.string()).default([]) }).default({ notes: [] });

const addNote = createTool({
  id: 'notes.add',
  description: 'Save a note for the user.',
  input: z.object({ text: z.string().min(1) }),
  state: NotesState,
  invoke: async ({ input, state }) => {
    await state.update((s) => ({ notes: [...s.notes, input.text] }));
    return { saved: input.text, count: state.get().notes.length };
  },
});

const clearNotes = createTool({
  id: 'notes.clear',
  description: 'Delete every note of the user.',
  input: z.object({}),
  state: NotesState,
  requireApproval: ({ state }) => ({
    required: state.notes.length > 0,
    reason: `This deletes all ${state.notes.length} of your notes.`,
  }),
  invoke: async ({ state }) => {
    const count = state.get().notes.length;
    await state.set({ notes: [] });
    return { deleted: count };
  },
});

/** A plugin in a few lines: typed state, two tools (one gated by approval), and context from state. */
export const notesPlugin = definePlugin({
  id: 'notes',
  state: NotesState,
  tools: [addNote, clearNotes],
  prepare: ({ state, context }) => {
    context.push({ text: 'You keep short notes for the user.', order: CONTEXT_ORDER.stable });
    const { notes } = state.get();
    if (notes.length > 0) context.push({ text: `Current notes: ${notes.join('; ')}` });
  },
});
