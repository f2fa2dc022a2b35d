import type { AnyPlugin, Platform } from '@tessera/core';

/** A plugin's state as an older version of the plugin stored it: its state version then, and its value. */
export type StoredState = { version: number; state: unknown };

/**
 * Stores a plugin's state in a conversation as the plugin's state version `version` wrote it, through the
 * store's `setPluginState` and the stored form core documents (`{ $version, value }`, or the bare value for
 * version 0, unversioned). The next prompt, or `platform.pluginState()`, migrates it: the way to test a
 * plugin's `migrate`.
 *
 * @example
 * ```ts
 * await seedState(t.platform, t.conversation.id, notes, { version: 1, state: { notes: ['milk'] } });
 * expect(await t.state(notes)).toEqual({ notes: [{ text: 'milk', done: false }] });
 * ```
 */
export async function seedState(
  platform: Platform,
  conversationId: string,
  plugin: AnyPlugin,
  { version, state }: StoredState,
): Promise<void> {
  if (!Number.isInteger(version) || version < 0) {
    throw new Error(`A state version is a whole number from 0 (unversioned), not ${String(version)}.`);
  }
  if (!(await platform.store.conversations.get(conversationId))) {
    throw new Error(`There is no conversation ${conversationId} to store '${plugin.id}' state in.`);
  }
  const entry = version === 0 ? state : { $version: version, value: state };
  await platform.store.conversations.setPluginState(conversationId, plugin.id, entry);
}
