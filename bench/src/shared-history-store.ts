import { MemoryStore, type PromptRecord, type Store } from '@tessera/core';

/**
 * A memory store in which every conversation starts with the same prior prompts, shared (they are frozen),
 * so a benchmark can run thousands of independent conversations over one long history without copying it.
 * Conversations list those prompts' ids first, as a store holding them would.
 */
export function sharedHistoryStore(history: readonly PromptRecord[]): Store {
  const inner = new MemoryStore();
  const historyIds = history.map((prompt) => prompt.id);
  return {
    conversations: {
      ...inner.conversations,
      get: async (id) => {
        const conversation = await inner.conversations.get(id);
        return conversation && { ...conversation, promptIds: [...historyIds, ...conversation.promptIds] };
      },
    },
    records: inner.records,
    prompts: {
      ...inner.prompts,
      listByConversation: async (conversationId) => [
        ...history,
        ...(await inner.prompts.listByConversation(conversationId)),
      ],
    },
  };
}
