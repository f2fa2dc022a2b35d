import type { Conversation } from '../model/conversation.ts';
import type { PluginState } from '../model/plugin-state.ts';
import type { AnyPlugin } from '../plugins/define-plugin.ts';
import type { Store } from '../store/store.ts';
import { needsMigration, parseState, readState, wrapState } from './stored-state.ts';

/**
 * The plugin states of one conversation while a prompt runs: each is parsed (validated) on its first read,
 * validated again on every write, written through to the store, and never visible to other plugins.
 */
export class ConversationStates {
  readonly #handles = new Map<string, PluginState<unknown>>();
  /** The stored entries as this prompt last read or wrote them. */
  readonly #stored: Record<string, unknown>;
  private readonly store: Store;
  private readonly conversationId: string;

  constructor(store: Store, conversation: Conversation) {
    this.store = store;
    this.conversationId = conversation.id;
    this.#stored = { ...conversation.pluginState };
  }

  /**
   * Brings the stored state of each plugin to the plugin's state version and writes it back, before anyone
   * reads it. Throws `PluginStateError` (and writes nothing for that plugin) when that cannot be done.
   */
  async migrate(plugins: readonly AnyPlugin[]): Promise<void> {
    for (const plugin of plugins) {
      const raw = this.#stored[plugin.id];
      if (!needsMigration(plugin, raw)) continue;
      const entry = wrapState(plugin, readState(plugin, raw));
      await this.store.conversations.setPluginState(this.conversationId, plugin.id, entry);
      this.#stored[plugin.id] = entry;
    }
  }

  for<T>(plugin: AnyPlugin): PluginState<T> {
    let handle = this.#handles.get(plugin.id);
    if (!handle) {
      handle = this.#create(plugin);
      this.#handles.set(plugin.id, handle);
    }
    return handle as PluginState<T>;
  }

  #create(plugin: AnyPlugin): PluginState<unknown> {
    let current: { value: unknown } | undefined;
    const handle: PluginState<unknown> = {
      get: () => {
        current ??= { value: readState(plugin, this.#stored[plugin.id]) };
        return current.value;
      },
      set: async (value) => {
        const parsed = parseState(plugin, value, 'the new state does not match the schema');
        const entry = wrapState(plugin, parsed);
        await this.store.conversations.setPluginState(this.conversationId, plugin.id, entry);
        this.#stored[plugin.id] = entry;
        current = { value: parsed };
      },
      update: async (change) => handle.set(change(handle.get())),
    };
    return handle;
  }
}
