import { MemoryStore, type PromptRecord, type Store } from '@tessera/core';

/**
 * A memory store in which every conversation starts with the same prior prompts, shared (they are frozen),
 * so a benchmark can run thousands of independent conversations over one long history without copying it.
 */
export function sharedHistoryStore(history: readonly PromptRecord[]): Store {
  const inner = new MemoryStore();
  return {
    conversations: inner.conversations,
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
