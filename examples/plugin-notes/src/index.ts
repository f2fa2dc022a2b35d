// @acme/tessera-plugin-notes: the user's notes, per conversation. The default export is the plugin factory,
// which is what a tessera.config file names: { "package": "@acme/tessera-plugin-notes", "options": { ... } }.
export { NotesOptions, notesPlugin, notesPlugin as default } from './plugin.ts';
export { noteSaved } from './saved-output.ts';
export { migrateNotes, Note, Notes, notesState } from './state.ts';
export { deletedNotes } from './trash.ts';
