import { createMemoryStore, DefinitionError } from '@tessera/core';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deletedNotes, noteSaved, notesPlugin } from '../src/index.ts';

afterEach(() => vi.unstubAllEnvs());

const note = (id: number, body: string) => ({ id, body });

describe('the notes plugin', () => {
  it('saves a note with a card the model reads as one line, and offers undo from the second call on', async () => {
    const notes = notesPlugin();
    const t = await createTestPlatform({ plugins: [notes] });
    t.model.push(callTool('notes.add', { body: 'Buy milk' }), callTool('notes.undo'), reply('Undone.'));
    const prompt = await t.send('Note: buy milk. Actually, no.');

    expect(t.toolResult(prompt, 'notes.add')).toEqual({ id: 1 });
    expect(t.outputs(prompt, noteSaved)).toMatchObject([{ noteId: 1, body: 'Buy milk' }]);
    expect(t.model.requests[1]?.messages).toContainEqual({
      type: 'message',
      role: 'assistant',
      content: 'Saved note #1: Buy milk',
    });
    expect(t.model.requests[0]?.instructions).toContain('The user has no notes.');
    expect(t.model.requests[1]?.instructions).toContain("The user's notes:\n#1 Buy milk");
    expect(t.model.toolsOffered(0)).toEqual(['notes.add', 'notes.delete']);
    expect(t.model.toolsOffered(1)).toEqual(['notes.add', 'notes.delete', 'notes.undo']);
    expect(t.toolResult(prompt, 'notes.undo')).toEqual({ removed: [1] });
    expect(await t.state(notes)).toEqual({ notes: [] });
  });

  it('deletes one note at once and several only after approval, into the trash, emptied with the conversation', async () => {
    const notes = notesPlugin();
    const t = await createTestPlatform({ plugins: [notes] });
    await t.setState(notes, { notes: [note(1, 'a'), note(2, 'b'), note(3, 'c')] });
    t.model.push(callTool('notes.delete', { ids: [1] }), reply('Deleted.'));
    expect(t.toolResult(await t.send('Delete #1'), 'notes.delete')).toEqual({ deleted: [1] });

    t.model.push(callTool('notes.delete', { ids: [2, 3] }), reply('Deleted.'));
    const paused = await t.send('Delete the rest');
    expect(t.pendingCall(paused).result).toEqual({
      type: 'pending',
      reason: 'Deleting 2 notes at once needs your approval.',
    });
    expect(await t.state(notes)).toEqual({ notes: [note(2, 'b'), note(3, 'c')] });
    await t.approvePending();
    expect(await t.state(notes)).toEqual({ notes: [] });
    expect(await deletedNotes(t.platform.services, t.conversation.id)).toEqual([
      note(1, 'a'),
      note(2, 'b'),
      note(3, 'c'),
    ]);

    await t.platform.conversations.delete(t.conversation.id, t.userId);
    expect(await deletedNotes(t.platform.services, t.conversation.id)).toEqual([]);
  });

  it.each([
    ['version 0 (release 0.1, before versions)', { notes: ['Call Ada'] }],
    ['version 1 (release 0.2, `text`)', { $version: 1, value: { notes: [{ id: 1, text: 'Call Ada' }] } }],
  ])('migrates a conversation stored by %s to `body` and writes it back', async (_, stored) => {
    const store = createMemoryStore();
    const notes = notesPlugin();
    const t = await createTestPlatform({ plugins: [notes], store, script: [reply('You have one note.')] });
    await store.conversations.setPluginState(t.conversation.id, 'notes', stored);

    await t.send('What are my notes?');
    expect(t.model.requests[0]?.instructions).toContain('#1 Call Ada');
    expect(await t.state(notes)).toEqual({ notes: [note(1, 'Call Ada')] });
    expect((await store.conversations.get(t.conversation.id))?.pluginState.notes).toEqual({
      $version: 2,
      value: { notes: [note(1, 'Call Ada')] },
    });
  });

  it('validates its options, filling maxNotes from ACME_NOTES_MAX', async () => {
    expect(() => notesPlugin({ maxNotes: 0, confirmDeletesOver: -1 })).toThrow(DefinitionError);
    expect(() => notesPlugin({ maxNotes: 0, confirmDeletesOver: -1 })).toThrow(
      /Plugin 'notes': its options are not valid:\n {2}- maxNotes: .+\n {2}- confirmDeletesOver: /,
    );
    vi.stubEnv('ACME_NOTES_MAX', 'lots');
    expect(() => notesPlugin()).toThrow('(from the environment variable ACME_NOTES_MAX)');

    vi.stubEnv('ACME_NOTES_MAX', '2');
    const notes = notesPlugin();
    const t = await createTestPlatform({ plugins: [notes] });
    await t.setState(notes, { notes: [note(1, 'a'), note(2, 'b')] });
    t.model.push(callTool('notes.add', { body: 'c' }), reply('Full.'));
    const prompt = await t.send('Note c');
    expect(() => t.toolResult(prompt, 'notes.add')).toThrow('The notebook is full (2 notes)');
  });
});
