import { z } from 'zod';
import { PluginStateError } from '../errors.ts';
import type { Conversation } from '../model/conversation.ts';
import type { AnyPlugin } from '../plugins/define-plugin.ts';
import type { Store } from '../store/store.ts';
import type { PluginState } from '../tools/create-tool.ts';

/**
 * The plugin states of one conversation while a prompt runs: each is parsed (validated) on its first read,
 * validated again on every write, written through to the store, and never visible to other plugins.
 */
export class ConversationStates {
  readonly #handles = new Map<string, PluginState<unknown>>();
  private readonly store: Store;
  private readonly conversation: Conversation;

  constructor(store: Store, conversation: Conversation) {
    this.store = store;
    this.conversation = conversation;
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
    const { store, conversation } = this;
    const parse = (value: unknown, when: string) => {
      const parsed = plugin.state.safeParse(value);
      if (!parsed.success) {
        throw new PluginStateError(plugin.id, `${when}:\n${z.prettifyError(parsed.error)}`, {
          cause: parsed.error,
        });
      }
      return parsed.data;
    };
    let current: { value: unknown } | undefined;
    const handle: PluginState<unknown> = {
      get: () => {
        current ??= {
          value: parse(conversation.pluginState[plugin.id], 'the stored state does not match the schema'),
        };
        return current.value;
      },
      set: async (value) => {
        const parsed = parse(value, 'the new state does not match the schema');
        await store.conversations.setPluginState(conversation.id, plugin.id, parsed);
        current = { value: parsed };
      },
      update: async (change) => handle.set(change(handle.get())),
    };
    return handle;
  }
}
