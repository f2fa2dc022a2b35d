import { describe, expect, it } from 'vitest';
import {
  describeStoreConformance,
  pageBudgetConformance,
  sampleConversation,
  samplePrompt,
} from '../../testing/src/store-conformance.ts';
import { MemoryStore } from '../src/index.ts';

describeStoreConformance('in-memory', () => new MemoryStore());

describe('in-memory store: a page of conversations', () => {
  pageBudgetConformance(async (pagePromptIds) => new MemoryStore({ pagePromptIds }));
});

describe('in-memory store: what it hands out', () => {
  it('cannot be changed by the caller, at any depth, nor change after it was read', async () => {
    const store = new MemoryStore();
    const conversation = sampleConversation();
    await store.conversations.create(conversation);
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    const input = { text: 'a', nested: { list: [1, 2] } };
    const call = { type: 'tool', id: 'out_t', createdAt: prompt.createdAt, callId: 'c1', toolId: 'x', input };
    await store.prompts.appendOutput(prompt.id, call);
    input.nested.list.push(3); // the caller's own object, after the write
    const read = (await store.prompts.get(prompt.id))!;
    const attempts = [
      () => (read.output as unknown[]).push({ type: 'text' }),
      () => (read.output[0] as unknown as { input: typeof input }).input.nested.list.push(4),
      () => Object.assign(read.usage, { totalTokens: 99 }),
      () => Object.assign(read, { state: 'failed' }),
    ];
    for (const attempt of attempts) expect(attempt).toThrow(TypeError);
    await store.prompts.appendOutput(prompt.id, { type: 'text', id: 'out_2', createdAt: prompt.createdAt });
    expect(read.output).toHaveLength(1); // an earlier read does not see later writes
    await store.prompts.update(prompt.id, {
      state: 'completed',
      append: [{ type: 'text', id: 'out_3', createdAt: prompt.createdAt }],
    });
    expect([read.state, read.output.length]).toEqual(['running', 1]);
    expect((await store.prompts.get(prompt.id))?.output.map((o) => o.id)).toEqual([
      'out_t',
      'out_2',
      'out_3',
    ]);
    expect((await store.prompts.get(prompt.id))?.output[0]).toEqual({
      ...call,
      input: { text: 'a', nested: { list: [1, 2] } },
    });
  });
});
