import {
  type AnyTool,
  type BoundCreateTool,
  CONTEXT_ORDER,
  definePlugin,
  definePluginFactory,
} from '@tessera/core';
import { z } from 'zod';
import { noteSaved } from './saved-output.ts';
import { type Notes, notesState } from './state.ts';
import { emptyTrash, moveToTrash } from './trash.ts';

export const NotesOptions = z.object({
  /** The most notes a conversation keeps; from ACME_NOTES_MAX when left out (a string there: coerced). */
  maxNotes: z.coerce.number().int().min(1).max(10_000).default(200),
  /** Deleting more notes than this in one call waits for the user's approval. */
  confirmDeletesOver: z.number().int().min(0).default(1),
});

const INSTRUCTIONS =
  'You keep notes for the user with the notes.* tools. Refer to a note by its number (#3); ' +
  'save what the user asks you to remember, and delete notes only when asked.';

const describeNotes = ({ notes }: Notes) =>
  notes.length === 0
    ? 'The user has no notes.'
    : `The user's notes:\n${notes.map((note) => `#${note.id} ${note.body}`).join('\n')}`;

/** Undoes this prompt's `notes.add` calls, found by their `notes.saved` outputs in the prompt. */
const undoTool = (tool: BoundCreateTool<Notes>) =>
  tool({
    id: 'notes.undo',
    description: 'Removes the notes saved earlier in this reply, when you saved something by mistake.',
    input: z.object({}),
    invoke: async ({ state, outputs }) => {
      const saved = new Set(outputs().flatMap((o) => (o.type === 'notes.saved' ? [o.noteId] : [])));
      const { notes } = state.get();
      await state.set({ notes: notes.filter((note) => !saved.has(note.id)) });
      return { removed: notes.filter((note) => saved.has(note.id)).map((note) => note.id) };
    },
  });

export const notesPlugin = definePluginFactory({
  id: 'notes',
  options: NotesOptions,
  env: { maxNotes: 'ACME_NOTES_MAX' },
  create: (options) => {
    let undo: AnyTool | undefined; // made once: createTool derives the JSON Schema for the model
    return definePlugin({
      id: 'notes',
      version: '0.3.0', // this package's version, for messages
      // The core versions this release works with. This example moves with core inside the repository, so
      // its range stays open up to 1.0; a published plugin names the range it was tested with, e.g. '^0.1.0'.
      core: '>=0.1.0 <1.0.0',
      state: notesState,
      outputs: [noteSaved],
      tools: ({ tool }) => [
        tool({
          id: 'notes.add',
          description: 'Saves a note for the user.',
          input: z.object({ body: z.string().min(1).max(2_000) }),
          invoke: async ({ input, state, emit }) => {
            const { notes } = state.get();
            if (notes.length >= options.maxNotes) {
              throw new Error(`The notebook is full (${options.maxNotes} notes): delete some first.`);
            }
            const id = Math.max(0, ...notes.map((note) => note.id)) + 1;
            await state.set({ notes: [...notes, { id, body: input.body }] });
            await emit({ type: 'notes.saved', noteId: id, body: input.body });
            return { id };
          },
        }),
        tool({
          id: 'notes.delete',
          description: 'Deletes notes by their numbers.',
          input: z.object({ ids: z.array(z.number().int()).min(1) }),
          requireApproval: ({ input }) => ({
            required: input.ids.length > options.confirmDeletesOver,
            reason: `Deleting ${input.ids.length} notes at once needs your approval.`,
          }),
          invoke: async ({ input, state, services, conversationId }) => {
            const { notes } = state.get();
            const missing = input.ids.filter((id) => !notes.some((note) => note.id === id));
            if (missing.length > 0) throw new Error(`There is no note #${missing.join(', #')}.`);
            const deleting = new Set(input.ids);
            await moveToTrash(
              services,
              conversationId,
              notes.filter((note) => deleting.has(note.id)),
            );
            await state.set({ notes: notes.filter((note) => !deleting.has(note.id)) });
            return { deleted: input.ids };
          },
        }),
      ],
      // Before every model call of a prompt: the notes as they are now, and undo once there may be
      // something to undo (from the second call on, after the model's first tool calls ran).
      prepare: ({ round, state, context, tools, tool }) => {
        context.push({ text: INSTRUCTIONS, order: CONTEXT_ORDER.stable });
        context.push({ text: describeNotes(state.get()), order: CONTEXT_ORDER.volatile });
        if (round === 0) return;
        undo ??= undoTool(tool);
        tools.push(undo);
      },
      conversationDeleted: ({ conversationId, services }) => emptyTrash(services, conversationId),
    });
  },
});
