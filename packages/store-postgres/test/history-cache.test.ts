import type { Conversation, PromptRecord, TextOutput } from '@tessera/core';
import { sampleConversation, samplePrompt, sampleTime } from '@tessera/testing';
import { afterEach, expect, it } from 'vitest';
import type { PostgresStore } from '../src/index.ts';
import { describeEachDriver } from './support/each-driver.ts';

// The history cache (`historyCacheBytes`): a process keeps the ended prompts of the histories it read, and a
// read leaves their outputs out while their rows are at the version it knows. What it must never do is hand
// out a prompt as it was before a change, whoever made the change and however soon.

const text = (id: string, value: string): TextOutput => ({
  type: 'text',
  id,
  text: value,
  createdAt: sampleTime(2),
});

/** A conversation of `store` with `n` completed prompts, each with one text output; their ids. */
async function endedPrompts(store: PostgresStore, n: number) {
  const conversation = sampleConversation();
  await store.conversations.create(conversation);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const prompt = samplePrompt(conversation, {
      output: [text(`out_${conversation.id}_${i}`, `answer ${i}`)],
    });
    await store.prompts.createWithHistory!(prompt);
    await store.prompts.update(prompt.id, { state: 'completed', updatedAt: sampleTime(3) });
    ids.push(prompt.id);
  }
  return { conversation, ids };
}

const history = async (store: PostgresStore, conversation: Conversation) =>
  (await store.conversations.getWithHistory!(conversation.id, conversation.userId))!.history;

/** What the next prompt's start reads: its history, as `createWithHistory` answers it. */
const nextStart = async (store: PostgresStore, conversation: Conversation) =>
  (await store.prompts.createWithHistory!(samplePrompt(conversation))).history;

const outputsOf = (prompts: readonly PromptRecord[]) =>
  prompts.map((prompt) => prompt.output.map((output) => (output as { text?: string }).text));

describeEachDriver('history cache', (open) => {
  const opened: PostgresStore[] = [];
  const openStore = async (options?: Parameters<typeof open>[0]) => {
    const store = await open(options);
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  it('hands out the same frozen ended prompts again, equal to what the database holds', async () => {
    const store = await openStore();
    const { conversation, ids } = await endedPrompts(store, 3);
    const first = await history(store, conversation);
    const again = await history(store, conversation);
    expect(again.map((prompt) => prompt.id)).toEqual(ids);
    const listed = await store.prompts.listByConversation(conversation.id);
    for (const [i, prompt] of again.entries()) {
      expect(prompt).toBe(first[i]);
      expect(listed[i]).toBe(first[i]);
      expect(Object.isFrozen(prompt) && Object.isFrozen(prompt.output[0])).toBe(true);
    }
    // A store that keeps nothing (another process) reads the same records.
    const fresh = await openStore({ schema: store.schema, historyCacheBytes: 0 });
    const expected = await history(fresh, conversation);
    expect(await nextStart(store, conversation)).toEqual(expected);
  });

  it("sees every change another process makes to a prompt it has read, even within the prompt's millisecond", async () => {
    const store = await openStore();
    const other = await openStore({ schema: store.schema });
    const { conversation, ids } = await endedPrompts(store, 3);
    await history(store, conversation);
    // The same `updatedAt` as before: a cache keyed by the prompt's time would miss each of these changes.
    const [, second, third] = ids;
    const replaced = { ...text(`out_${conversation.id}_1`, 'edited'), createdAt: sampleTime(2) };
    expect(await other.prompts.update(second!, { outputs: [replaced], updatedAt: sampleTime(3) })).toBe(true);
    expect(
      await other.prompts.update(third!, { append: [text('appended', 'more')], updatedAt: sampleTime(3) }),
    ).toBe(true);
    expect(outputsOf(await store.prompts.listByConversation(conversation.id))).toEqual([
      ['answer 0'],
      ['edited'],
      ['answer 2', 'more'],
    ]);
    expect(await other.prompts.update(ids[0]!, { state: 'failed', updatedAt: sampleTime(3) })).toBe(true);
    expect((await history(store, conversation)).map((prompt) => prompt.state)).toEqual([
      'failed',
      'completed',
      'completed',
    ]);
    expect(outputsOf(await nextStart(store, conversation))).toEqual([
      ['answer 0'],
      ['edited'],
      ['answer 2', 'more'],
    ]);
  });

  it('sees outputs taken out, and prompts deleted with their conversation', async () => {
    const store = await openStore();
    const { conversation, ids } = await endedPrompts(store, 2);
    await store.prompts.update(ids[1]!, { append: [text('extra', 'extra')] });
    expect(outputsOf(await history(store, conversation))).toEqual([['answer 0'], ['answer 1', 'extra']]);
    await store.prompts.update(ids[1]!, { removeOutputs: ['extra'] });
    expect(outputsOf(await history(store, conversation))).toEqual([['answer 0'], ['answer 1']]);
    await store.conversations.delete(conversation.id);
    expect(await store.conversations.getWithHistory!(conversation.id, conversation.userId)).toBeUndefined();
  });

  it('keeps nothing with historyCacheBytes 0, and no conversation over an eighth of its bytes', async () => {
    const none = await openStore({ historyCacheBytes: 0 });
    const small = await endedPrompts(none, 2);
    const [a] = await history(none, small.conversation);
    const [b] = await history(none, small.conversation);
    expect(b).toEqual(a);
    expect(b).not.toBe(a);

    const bounded = await openStore({ schema: none.schema, historyCacheBytes: 64 * 1024 });
    const [c] = await history(bounded, small.conversation);
    expect(await history(bounded, small.conversation)).toContain(c);
    const large = await endedPrompts(bounded, 1);
    await bounded.prompts.update(large.ids[0]!, { append: [text('large', 'x'.repeat(10_000))] });
    const [d] = await history(bounded, large.conversation);
    const [e] = await history(bounded, large.conversation);
    expect(e).toEqual(d);
    expect(e).not.toBe(d);
  });
});
