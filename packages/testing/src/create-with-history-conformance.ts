import {
  ConflictError,
  type Conversation,
  ConversationBusyError,
  NotFoundError,
  newId,
  type PromptRecord,
  type Store,
} from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { sampleConversation, samplePrompt, sampleTime } from './sample-records.ts';

/** The conversation and its history as `get` and `listByConversation` read them now. */
const readBoth = async (store: Store, id: string) => ({
  conversation: await store.conversations.get(id),
  history: await store.prompts.listByConversation(id),
});

/** A prompt in `conversation`, ended and answered, as a history holds them. */
async function endedPrompt(store: Store, conversation: Conversation, input: string) {
  const prompt = samplePrompt(conversation, { input, state: 'completed' });
  await store.prompts.create(prompt);
  const answer = { type: 'text', id: newId('out'), createdAt: sampleTime(2), text: input };
  await store.prompts.appendOutput(prompt.id, answer);
  return prompt;
}

/** `createWithHistory` skips the test when the store has none. */
function withCreate(store: Store, skip: (note: string) => void) {
  if (!store.prompts.createWithHistory) skip('this store has no createWithHistory');
  return (prompt: PromptRecord) => store.prompts.createWithHistory!(prompt);
}

/** `prompts.createWithHistory` (optional): a prompt created, and what running it reads, at once. */
export function createWithHistoryConformance(getStore: () => Store): void {
  describe('prompt created with its conversation’s history', () => {
    it('creates the prompt and returns its conversation and history as they were just before', async ({
      skip,
    }) => {
      const store = getStore();
      const create = withCreate(store, skip);
      const conversation = sampleConversation();
      await store.conversations.create(conversation);
      await store.conversations.setPluginState(conversation.id, 'skills', { active: ['email'] });
      const empty = await readBoth(store, conversation.id);
      const first = samplePrompt(conversation, { input: 'first' });
      expect(await create(first)).toEqual(empty);
      expect(empty.history).toEqual([]);
      await store.prompts.update(first.id, { state: 'completed' });
      await endedPrompt(store, conversation, 'second');
      const before = await readBoth(store, conversation.id);
      const output = { type: 'text', id: newId('out'), createdAt: sampleTime(3), text: 'a file' };
      const third = samplePrompt(conversation, {
        input: 'third',
        output: [output],
        createdAt: sampleTime(3),
      });
      expect(await create(third)).toEqual(before);
      expect(before.history.map((p) => p.input)).toEqual(['first', 'second']);
      expect(await store.prompts.get(third.id)).toEqual(third);
      expect((await store.conversations.get(conversation.id))?.promptIds).toEqual([
        ...before.conversation!.promptIds,
        third.id,
      ]);
      expect((await store.prompts.findByToolCall(output.id))?.id).toBe(third.id);
    });

    it('reads a fork’s shared history with its own', async ({ skip }) => {
      const store = getStore();
      const create = withCreate(store, skip);
      if (!store.conversations.fork) skip('this store has no forks');
      const source = sampleConversation();
      await store.conversations.create(source);
      await endedPrompt(store, source, 'one');
      const two = await endedPrompt(store, source, 'two');
      const fork = await store.conversations.fork!({
        id: newId('conv'),
        userId: source.userId,
        createdAt: sampleTime(5),
        updatedAt: sampleTime(5),
        forkOf: { conversationId: source.id, promptId: two.id },
      });
      await endedPrompt(store, fork, 'own');
      const before = await readBoth(store, fork.id);
      expect(await create(samplePrompt(fork, { input: 'next' }))).toEqual(before);
      expect(before.history.map((p) => p.input)).toEqual(['one', 'own']);
    });

    it('names an untitled conversation with `options.title`, in the same step, and keeps a title it has', async ({
      skip,
    }) => {
      const store = getStore();
      if (!store.prompts.createWithHistory) skip('this store has no createWithHistory');
      const create = store.prompts.createWithHistory!.bind(store.prompts);
      const untitled = sampleConversation();
      await store.conversations.create(untitled);
      const first = samplePrompt(untitled, { input: 'Plan a trip' });
      // The conversation returned is the one read before: untitled, so the caller knows it named it.
      expect((await create(first, { title: 'Plan a trip' })).conversation.title).toBeUndefined();
      expect((await store.conversations.get(untitled.id))?.title).toBe('Plan a trip');
      await store.prompts.update(first.id, { state: 'completed' });
      const next = await create(samplePrompt(untitled, { input: 'Go on' }), { title: 'Go on' });
      expect(next.conversation.title).toBe('Plan a trip');
      expect((await store.conversations.get(untitled.id))?.title).toBe('Plan a trip');
      const refused = samplePrompt(untitled, { input: 'busy' });
      await expect(create(refused, { title: 'busy' })).rejects.toThrow();
      const plain = sampleConversation();
      await store.conversations.create(plain);
      await create(samplePrompt(plain));
      expect((await store.conversations.get(plain.id))?.title).toBeUndefined();
    });

    createWithHistoryRefusals(getStore);
  });
}

/** What `create` refuses, and another user's conversation: each refused, nothing written. */
function createWithHistoryRefusals(getStore: () => Store): void {
  it('refuses another user’s conversation, a missing one, a busy one and a prompt id taken, writing nothing', async ({
    skip,
  }) => {
    const store = getStore();
    const create = withCreate(store, skip);
    const conversation = sampleConversation();
    await store.conversations.create(conversation);
    const ended = await endedPrompt(store, conversation, 'ended');
    const before = await readBoth(store, conversation.id);
    const theirs = samplePrompt({ ...conversation, userId: 'user_b' });
    await expect(create(theirs)).rejects.toBeInstanceOf(NotFoundError);
    const missing = samplePrompt({ ...conversation, id: 'conv_missing' });
    await expect(create(missing)).rejects.toBeInstanceOf(NotFoundError);
    await expect(create({ ...ended, state: 'running' })).rejects.toBeInstanceOf(ConflictError);
    for (const refused of [theirs, missing]) expect(await store.prompts.get(refused.id)).toBeUndefined();
    expect(await readBoth(store, conversation.id)).toEqual(before);

    const running = samplePrompt(conversation, { input: 'running' });
    await create(running);
    const busy = samplePrompt(conversation, { input: 'busy' });
    await expect(create(busy)).rejects.toBeInstanceOf(ConversationBusyError);
    expect(await store.prompts.get(busy.id)).toBeUndefined();
    expect((await store.conversations.get(conversation.id))?.promptIds).toEqual([ended.id, running.id]);
  });

  it('admits exactly one of many concurrent creates in one conversation', async ({ skip }) => {
    const store = getStore();
    const create = withCreate(store, skip);
    const conversation = sampleConversation();
    await store.conversations.create(conversation);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => create(samplePrompt(conversation))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await store.conversations.get(conversation.id))?.promptIds).toHaveLength(1);
  });
}
