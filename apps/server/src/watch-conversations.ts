import type { ConversationStore, PromptStore, Store } from '@tessera/core';
import type { UserEventLog } from './http/user-events.ts';

/**
 * The store, telling `events` of every conversation created, renamed or deleted through it: whoever does it
 * in this process (a route, the CLI's requests, a plugin, the platform itself), the owner's list hears of it.
 * At the store rather than at the routes, so that no path that changes a conversation can forget to say so.
 * A rename and a delete read the conversation once more, for its owner (the store takes only its id); a
 * title given with a prompt comes with its owner.
 */
export function watchConversations(store: Store, events: UserEventLog): Store {
  const inner = store.conversations;
  const conversations: ConversationStore = {
    create: async (conversation) => {
      await inner.create(conversation);
      events.conversationChanged(conversation.userId, { type: 'conversation.created', conversation });
    },
    get: (id) => inner.get(id),
    ...(inner.getWithHistory && {
      getWithHistory: (id, userId) => inner.getWithHistory!(id, userId),
    }),
    listByUser: (userId, options) => inner.listByUser(userId, options),
    // Present only when the store has it: the search route falls back on titles for a store without.
    ...(inner.search && { search: (userId, query, options) => inner.search!(userId, query, options) }),
    ...(inner.fork && {
      fork: async (fork) => {
        const forked = await inner.fork!(fork);
        events.conversationChanged(forked.userId, { type: 'conversation.created', conversation: forked });
        return forked;
      },
    }),
    ...(inner.listBranches && {
      listBranches: (userId, rootId, options) => inner.listBranches!(userId, rootId, options),
    }),
    // Without it the platform counts a user's conversations by listing them all, twice a create.
    ...(inner.countByUser && { countByUser: (userId, options) => inner.countByUser!(userId, options) }),
    setPluginState: (id, pluginId, state) => inner.setPluginState(id, pluginId, state),
    rename: async (id, title) => {
      await inner.rename(id, title);
      const renamed = await inner.get(id);
      if (!renamed) return; // deleted in between: its deletion is the news
      events.conversationChanged(renamed.userId, {
        type: 'conversation.renamed',
        conversationId: id,
        title: renamed.title ?? title,
      });
    },
    delete: async (id) => {
      const owner = (await inner.get(id))?.userId;
      const deleted = await inner.delete(id);
      if (deleted && owner !== undefined)
        events.conversationChanged(owner, { type: 'conversation.deleted', conversationId: id });
      return deleted;
    },
  };
  const prompts = watchTitles(store.prompts, events);
  // A proxy, not a copy: every other member (records, relay, close, and any a store adds later) stays the
  // store's own, called on the store itself.
  return new Proxy(store, {
    get(target, property) {
      if (property === 'conversations') return conversations;
      if (property === 'prompts') return prompts;
      return own(target, property);
    },
  });
}

/** A member of `target`, a method bound to it (its private fields are not the proxy's). */
function own(target: object, property: string | symbol): unknown {
  const value: unknown = Reflect.get(target, property, target);
  return typeof value === 'function' ? value.bind(target) : value;
}

/**
 * The prompts, telling `events` of a conversation named by its first prompt (`SendOptions.title`, given to
 * `createWithHistory`): the conversation it returns is the one read before, so untitled means it was named.
 */
function watchTitles(inner: PromptStore, events: UserEventLog): PromptStore {
  const create = inner.createWithHistory?.bind(inner);
  if (!create) return inner; // core renames through the conversations above instead
  const createWithHistory: PromptStore['createWithHistory'] = async (prompt, options) => {
    const created = await create(prompt, options);
    if (options?.title !== undefined && created.conversation.title === undefined) {
      events.conversationChanged(prompt.userId, {
        type: 'conversation.renamed',
        conversationId: prompt.conversationId,
        title: options.title,
      });
    }
    return created;
  };
  return new Proxy(inner, {
    get: (target, property) => (property === 'createWithHistory' ? createWithHistory : own(target, property)),
  });
}
