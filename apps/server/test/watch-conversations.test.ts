import { MemoryStore } from '@tessera/core';
import { describe, expect, it, vi } from 'vitest';
import type { UserEventLog } from '../src/http/user-events.ts';
import { watchConversations } from '../src/watch-conversations.ts';

describe('the store the server watches', () => {
  const conversation = {
    id: 'conv_1',
    userId: 'u',
    promptIds: [],
    pluginState: {},
    createdAt: '',
    updatedAt: '',
  };

  it("keeps the store's one-read conversation with history (getWithHistory), and adds none a store lacks", async () => {
    const store = new MemoryStore();
    const events = { conversationChanged: vi.fn() } as unknown as UserEventLog;
    expect(watchConversations(store, events).conversations.getWithHistory).toBeUndefined();

    const read = vi.fn(async (id: string, userId: string) =>
      id === 'conv_1' && userId === 'u' ? { conversation, history: [] } : undefined,
    );
    Object.assign(store.conversations, { getWithHistory: read });
    const watched = watchConversations(store, events).conversations;
    expect(await watched.getWithHistory!('conv_1', 'u')).toEqual({ conversation, history: [] });
    expect(await watched.getWithHistory!('conv_1', 'v')).toBeUndefined();
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("keeps every member of the store's conversations (countByUser, search, fork…): one left out falls back on slower paths", async () => {
    const store = new MemoryStore();
    const events = { conversationChanged: vi.fn() } as unknown as UserEventLog;
    const watched = watchConversations(store, events).conversations;
    expect(Object.keys(watched).sort()).toEqual(Object.keys(store.conversations).sort());
    await watched.create({
      id: 'conv_1',
      userId: 'u',
      promptIds: [],
      pluginState: {},
      createdAt: '',
      updatedAt: '',
    });
    expect(await watched.countByUser!('u')).toBe(1);
  });
});
