import type { VersionedState } from '@tessera/core';
import { z } from 'zod';

export const Note = z.object({ id: z.number().int().positive(), body: z.string() });
export type Note = z.infer<typeof Note>;

/** A conversation's notes, as version 2 of the state stores them. */
export const Notes = z.object({ notes: z.array(Note).default([]) }).default({ notes: [] });
export type Notes = z.infer<typeof Notes>;

/** Version 1 (release 0.2) called a note's text `text`. */
type NotesV1 = { notes: { id: number; text: string }[] };

/**
 * Brings stored notes of an older version to version 2, one step after the other. Version 0 is what release
 * 0.1 stored before the plugin declared versions: the notes as plain strings. Pure, as core requires: ids are
 * the notes' positions, so running it twice gives the same state.
 */
export function migrateNotes(stored: unknown, fromVersion: number): unknown {
  let state = stored;
  if (fromVersion === 0) {
    const texts = (state as { notes?: string[] } | undefined)?.notes ?? [];
    state = { notes: texts.map((text, i) => ({ id: i + 1, text })) } satisfies NotesV1;
  }
  if (fromVersion <= 1) {
    state = { notes: (state as NotesV1).notes.map(({ id, text }) => ({ id, body: text })) } satisfies Notes;
  }
  return state;
}

export const notesState: VersionedState<Notes> = { schema: Notes, version: 2, migrate: migrateNotes };
