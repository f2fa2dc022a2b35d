import { callTool, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyPlugin,
  createPlatform,
  DefinitionError,
  definePlugin,
  MemoryStore,
  PluginStateError,
  type ToolOutput,
} from '../src/index.ts';

// Version 0 of a notes plugin (a plain schema): notes have a `text`.
const NotesV0 = z
  .object({ notes: z.array(z.object({ text: z.string() })).default([]) })
  .default({ notes: [] });
// Later versions renamed `text` to `body` (1), then added `pinned` (2).
const NotesV1 = z
  .object({ notes: z.array(z.object({ body: z.string() })).default([]) })
  .default({ notes: [] });
const NotesV2 = z
  .object({ notes: z.array(z.object({ body: z.string(), pinned: z.boolean() })).default([]) })
  .default({ notes: [] });

type Migrate = (stored: unknown, fromVersion: number) => unknown;
const renameText: Migrate = (stored) => ({
  notes: (stored as { notes: { text: string }[] }).notes.map((note) => ({ body: note.text })),
});

/** The notes plugin at some version, with a tool that adds a note and a prepare() that lists them. */
function notesPlugin(state: z.ZodType | { schema: z.ZodType; version: number; migrate: Migrate }) {
  const seen: unknown[] = [];
  const plugin = definePlugin({
    id: 'notes',
    state: state as z.ZodType<{ notes: Record<string, unknown>[] }>,
    tools: ({ tool }) => [
      tool({
        id: 'notes.add',
        description: 'Add a note.',
        input: z.object({ note: z.record(z.string(), z.unknown()) }),
        invoke: ({ input, state }) => state.update((s) => ({ notes: [...s.notes, input.note] })),
      }),
    ],
    prepare: ({ state }) => void seen.push(state.get()),
  });
  return { plugin, seen };
}

/** A second plugin whose state must never be touched by the notes plugin's migrations. */
const counter = definePlugin({
  id: 'counter',
  state: z.object({ n: z.number().default(0) }).default({ n: 0 }),
});

async function conversationWithV0Notes(store: MemoryStore) {
  const v0 = createPlatform({
    store,
    plugins: [notesPlugin(NotesV0).plugin, counter],
    model: new ScriptedModel([callTool('notes.add', { note: { text: 'milk' } }), reply('Noted.')]),
  });
  const conversation = await v0.conversations.create({ userId: 'u' });
  await v0.send({ conversationId: conversation.id, userId: 'u', input: 'note milk' });
  await (await v0.pluginState(conversation.id, counter)).set({ n: 3 });
  const { pluginState } = (await store.conversations.get(conversation.id))!;
  expect(pluginState).toEqual({ notes: { notes: [{ text: 'milk' }] }, counter: { n: 3 } });
  return conversation;
}

const send = (plugins: AnyPlugin[], store: MemoryStore, conversationId: string) => {
  const model = new ScriptedModel([reply('ok')]);
  const platform = createPlatform({ store, plugins, model });
  return { platform, done: platform.send({ conversationId, userId: 'u', input: 'hi' }) };
};

describe('versioned plugin state', () => {
  it('migrates state stored before the plugin had versions (version 0), validates it and writes it back once', async () => {
    const store = new MemoryStore();
    const conversation = await conversationWithV0Notes(store);
    let migrations = 0;
    const v1 = notesPlugin({
      schema: NotesV1,
      version: 1,
      migrate: (stored, from) => {
        migrations++;
        expect(from).toBe(0);
        return renameText(stored, from);
      },
    });

    const prompt = await send([v1.plugin, counter], store, conversation.id).done;
    expect(prompt.state).toBe('completed');
    expect(v1.seen).toEqual([{ notes: [{ body: 'milk' }] }]);
    // Stored with its version, in the plugin's one entry; the other plugin's entry is as it was.
    expect((await store.conversations.get(conversation.id))?.pluginState).toEqual({
      notes: { $version: 1, value: { notes: [{ body: 'milk' }] } },
      counter: { n: 3 },
    });

    const again = send([v1.plugin, counter], store, conversation.id);
    expect((await again.done).state).toBe('completed');
    expect(migrations).toBe(1);
    // Apps never see the envelope: the conversation and pluginState() give the state itself.
    const shown = await again.platform.conversations.get(conversation.id, 'u');
    expect(shown.pluginState).toEqual({ notes: { notes: [{ body: 'milk' }] }, counter: { n: 3 } });
    const listed = await again.platform.conversations.list('u');
    expect(listed.items[0]?.pluginState).toEqual(shown.pluginState);
    expect((await again.platform.pluginState(conversation.id, v1.plugin)).get()).toEqual({
      notes: [{ body: 'milk' }],
    });
  });

  it('writes versioned state with its version, and reads it back without migrating', async () => {
    const store = new MemoryStore();
    const v1 = notesPlugin({
      schema: NotesV1,
      version: 1,
      migrate: () => {
        throw new Error('not expected');
      },
    });
    const platform = createPlatform({
      store,
      plugins: [v1.plugin],
      model: new ScriptedModel([callTool('notes.add', { note: { body: 'eggs' } }), reply('ok'), reply('ok')]),
    });
    const conversation = await platform.conversations.create({ userId: 'u' });
    await platform.send({ conversationId: conversation.id, userId: 'u', input: 'note eggs' });
    expect((await store.conversations.get(conversation.id))?.pluginState.notes).toEqual({
      $version: 1,
      value: { notes: [{ body: 'eggs' }] },
    });
    const next = await platform.send({ conversationId: conversation.id, userId: 'u', input: 'and?' });
    expect(next.state).toBe('completed');
    expect(v1.seen.at(-1)).toEqual({ notes: [{ body: 'eggs' }] });
  });

  it('gives migrate() the version the state was stored at, and brings every older one to the current', async () => {
    const store = new MemoryStore();
    const conversation = await conversationWithV0Notes(store);
    const toV1 = notesPlugin({ schema: NotesV1, version: 1, migrate: renameText });
    await send([toV1.plugin], store, conversation.id).done;

    const froms: number[] = [];
    const toV2 = notesPlugin({
      schema: NotesV2,
      version: 2,
      migrate: (stored, from) => {
        froms.push(from);
        const v1 = (from < 1 ? renameText(stored, from) : stored) as { notes: { body: string }[] };
        return { notes: v1.notes.map((note) => ({ ...note, pinned: false })) };
      },
    });
    expect((await send([toV2.plugin], store, conversation.id).done).state).toBe('completed');
    expect(toV2.seen).toEqual([{ notes: [{ body: 'milk', pinned: false }] }]);
    expect(froms).toEqual([1]);
    expect((await store.conversations.get(conversation.id))?.pluginState.notes).toEqual({
      $version: 2,
      value: { notes: [{ body: 'milk', pinned: false }] },
    });
  });

  it('fails the prompt, naming the plugin and the versions, when a migration throws; nothing stored is lost and a fixed plugin works', async () => {
    const store = new MemoryStore();
    const conversation = await conversationWithV0Notes(store);
    const before = (await store.conversations.get(conversation.id))?.pluginState;
    const broken = notesPlugin({
      schema: NotesV1,
      version: 1,
      migrate: () => {
        throw new Error('cannot read notes');
      },
    });

    const failed = await send([broken.plugin, counter], store, conversation.id).done;
    expect(failed.state).toBe('failed');
    expect(failed.stopReason).toEqual({
      code: 'plugin_state_invalid',
      message: "Plugin 'notes': migrating the stored state from version 0 to 1 failed: cannot read notes",
    });
    expect(broken.seen).toEqual([]);
    expect((await store.conversations.get(conversation.id))?.pluginState).toEqual(before);

    const fixed = notesPlugin({ schema: NotesV1, version: 1, migrate: renameText });
    expect((await send([fixed.plugin, counter], store, conversation.id).done).state).toBe('completed');
    expect(fixed.seen).toEqual([{ notes: [{ body: 'milk' }] }]);
  });

  it('fails the same way when a migration gives state that does not match the schema', async () => {
    const store = new MemoryStore();
    const conversation = await conversationWithV0Notes(store);
    const before = (await store.conversations.get(conversation.id))?.pluginState;
    const sloppy = notesPlugin({ schema: NotesV1, version: 1, migrate: (stored) => stored });
    const { platform, done } = send([sloppy.plugin, counter], store, conversation.id);
    const failed = await done;
    expect(failed.stopReason?.code).toBe('plugin_state_invalid');
    expect(failed.stopReason?.message).toContain(
      "Plugin 'notes': migrating the stored state from version 0 to 1 gave a state that does not match the schema",
    );
    expect(failed.stopReason?.message).toContain('notes[0].body');
    expect((await store.conversations.get(conversation.id))?.pluginState).toEqual(before);

    const error = await platform.pluginState(conversation.id, sloppy.plugin).catch((e: unknown) => e);
    expect(PluginStateError.is(error)).toBe(true);
    expect(error).toMatchObject({ pluginId: 'notes', fromVersion: 0, toVersion: 1 });
  });

  it('refuses state stored by a newer version of the plugin (a downgrade) and leaves it as it is', async () => {
    const store = new MemoryStore();
    const platform = createPlatform({ store, plugins: [], model: new ScriptedModel() });
    const conversation = await platform.conversations.create({ userId: 'u' });
    const newer = { $version: 2, value: { notes: [{ body: 'milk', pinned: true }] } };
    await store.conversations.setPluginState(conversation.id, 'notes', newer);

    const v1 = notesPlugin({ schema: NotesV1, version: 1, migrate: renameText });
    const failed = await send([v1.plugin], store, conversation.id).done;
    expect(failed.stopReason).toMatchObject({ code: 'plugin_state_invalid' });
    expect(failed.stopReason?.message).toContain(
      "Plugin 'notes': the stored state is version 2, newer than version 1 that this version of the plugin knows",
    );
    // So does a plugin that has no versions at all (version 0).
    const unversioned = notesPlugin(NotesV0);
    const error = await createPlatform({ store, plugins: [unversioned.plugin], model: new ScriptedModel() })
      .pluginState(conversation.id, unversioned.plugin)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'plugin_state_invalid', fromVersion: 2, toVersion: 0 });
    expect((await store.conversations.get(conversation.id))?.pluginState.notes).toEqual(newer);
  });

  it('migrates through pluginState() from outside a prompt too, and writes the result back', async () => {
    const store = new MemoryStore();
    const conversation = await conversationWithV0Notes(store);
    const v1 = notesPlugin({ schema: NotesV1, version: 1, migrate: renameText });
    const platform = createPlatform({ store, plugins: [v1.plugin], model: new ScriptedModel() });
    const state = await platform.pluginState(conversation.id, v1.plugin);
    expect(state.get()).toEqual({ notes: [{ body: 'milk' }] });
    expect((await store.conversations.get(conversation.id))?.pluginState.notes).toEqual({
      $version: 1,
      value: { notes: [{ body: 'milk' }] },
    });
  });

  it('lets a tool of a versioned plugin write its state during the prompt that migrated it', async () => {
    const store = new MemoryStore();
    const conversation = await conversationWithV0Notes(store);
    const v1 = notesPlugin({ schema: NotesV1, version: 1, migrate: renameText });
    const platform = createPlatform({
      store,
      plugins: [v1.plugin],
      model: new ScriptedModel([callTool('notes.add', { note: { body: 'bread' } }), reply('ok')]),
    });
    const prompt = await platform.send({ conversationId: conversation.id, userId: 'u', input: 'bread' });
    expect((prompt.output[0] as ToolOutput).result?.type).toBe('success');
    expect((await store.conversations.get(conversation.id))?.pluginState.notes).toEqual({
      $version: 1,
      value: { notes: [{ body: 'milk' }, { body: 'bread' }] },
    });
  });

  it('checks a versioned state definition when the plugin is defined', () => {
    const migrate = (stored: unknown) => stored;
    expect(() => definePlugin({ id: 'p', state: { schema: NotesV1, version: 0, migrate } })).toThrow(
      "Plugin 'p': state.version must be a positive integer",
    );
    expect(() => definePlugin({ id: 'p', state: { schema: NotesV1, version: 1.5, migrate } })).toThrow(
      DefinitionError,
    );
    expect(() => definePlugin({ id: 'p', state: { schema: NotesV1, version: 1 } as never })).toThrow(
      'a versioned state needs migrate(stored, fromVersion)',
    );
    expect(() =>
      definePlugin({ id: 'p', state: { schema: z.object({ n: z.number() }), version: 1, migrate } }),
    ).toThrow('must accept a missing state');
  });
});
