import { defineOutput, type OutputOf } from '@tessera/core';
import { z } from 'zod';

/**
 * A note card in the record, right after the `notes.add` call that saved it: apps render it, and the model
 * reads it as one line (its `summary`), so it knows the note's number without another call.
 */
export const noteSaved = defineOutput({
  type: 'notes.saved',
  fields: { noteId: z.number().int(), body: z.string() },
  project: { summary: (note) => `Saved note #${note.noteId}: ${note.body}` },
});

declare module '@tessera/core' {
  interface PromptOutputTypes {
    'notes.saved': OutputOf<typeof noteSaved>;
  }
}
