import { MemoryStore, type Store } from '@tessera/core';
import { reply } from '@tessera/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { searchConversations } from '../src/http/routes/search.ts';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>>;
afterEach(async () => t?.close());

/** Sends `input` in a new conversation of the token's user and waits for the prompt to end. */
async function conversationWith(title: string, input: string, token?: string) {
  const created = await t.request('POST', '/api/conversations', { body: { title }, ...(token && { token }) });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const sent = await t.request('POST', `/api/conversations/${id}/prompts`, {
    body: { input },
    ...(token && { token }),
  });
  expect(sent.status).toBe(202);
  for (let i = 0; ; i++) {
    const read = await t.request('GET', `/api/conversations/${id}`, token ? { token } : {});
    if (read.body.prompts?.[0]?.state === 'completed') return id;
    if (i > 2_000) throw new Error('the prompt did not end');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const search = (query: string, token?: string) =>
  t.request('GET', `/api/search?${query}`, token ? { token } : {});

describe('search (GET /api/search)', () => {
  it("finds words in answers and inputs, with highlights, paged, and never another user's", async () => {
    t = await testServer([
      reply(['The capital of Italy is Rome.']),
      reply(['Rome has the Colosseum.']),
      reply(['Counting the inventory now.']),
    ]);
    const trip = await conversationWith('Trip', 'What is the capital of Italy?');
    const theirs = await conversationWith('Secret', 'Tell me about the city', BOB);
    const stock = await conversationWith('Stock', 'Please check the warehouse inventory');

    const rome = await search('q=rome');
    expect(rome.status).toBe(200);
    expect(rome.body.items).toEqual([
      {
        conversationId: trip,
        promptId: expect.any(String),
        title: 'Trip',
        field: 'output',
        snippet: { text: 'The capital of Italy is Rome.', highlights: [[24, 28]] },
      },
    ]);
    const bobs = await search('q=colosseum', BOB);
    expect(bobs.body.items.map((h: { conversationId: string }) => h.conversationId)).toEqual([theirs]);
    expect((await search('q=colosseum')).body.items).toEqual([]);

    const inventory = await search('q=Inventory&limit=1');
    expect(inventory.body.items.map((h: { field: string }) => h.field)).toEqual(['input']);
    expect(inventory.body.items[0].conversationId).toBe(stock);
    const next = await search(`q=Inventory&limit=1&cursor=${encodeURIComponent(inventory.body.nextCursor)}`);
    expect(next.body.items.map((h: { field: string }) => h.field)).toEqual(['output']);
    expect(next.body.nextCursor).toBeUndefined();
  });

  it('answers hostile or oversized queries with a clear 400, and takes any string that fits', async () => {
    t = await testServer();
    const refused = [
      '',
      `q=${'a'.repeat(201)}`,
      `q=${Array.from({ length: 17 }, (_, i) => `w${i}`).join('+')}`,
      'q=rome&limit=0',
      'q=rome&limit=101',
      'q=rome&limit=abc',
      'q=rome&cursor=not-ours',
      'q=rome&cursor=s99999999',
      `q=rome&cursor=${'x'.repeat(300)}`,
    ];
    for (const query of refused) {
      const answer = await search(query);
      expect([query, answer.status, typeof answer.body.error?.message]).toEqual([query, 400, 'string']);
    }
    for (const q of [
      '',
      "x' OR '1'='1",
      '!(a) & | <-> :*',
      '"',
      '\u0000',
      '\\',
      '日本語',
      '%00',
      '<script>',
    ]) {
      const answer = await search(`q=${encodeURIComponent(q)}`);
      expect([q, answer.status, answer.body.items]).toEqual([q, 200, []]);
    }
    expect((await t.request('GET', '/api/search?q=rome', { token: null })).status).toBe(401);
  });
});

describe('search with a store that has none of its own', () => {
  it("matches the user's titles only, paged, with the same bounds", async () => {
    const memory = new MemoryStore();
    const { search: _, ...conversations } = memory.conversations;
    const store = { ...memory, conversations } as Store;
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    for (let i = 0; i < 3; i++) {
      const c = { id: `conv_${i}`, userId: 'ada', title: `Rome trip ${i}`, promptIds: [], pluginState: {} };
      await memory.conversations.create({ ...c, createdAt: at(i), updatedAt: at(i) });
    }
    await memory.conversations.create({
      ...{ id: 'conv_b', userId: 'bob', title: 'Rome', promptIds: [], pluginState: {} },
      ...{ createdAt: at(9), updatedAt: at(9) },
    });
    const first = await searchConversations(store, 'ada', 'ROME', { limit: 2 });
    expect(first.items.map((h) => [h.conversationId, h.field, h.snippet.highlights])).toEqual([
      ['conv_2', 'title', [[0, 4]]],
      ['conv_1', 'title', [[0, 4]]],
    ]);
    const second = await searchConversations(store, 'ada', 'ROME', { limit: 2, cursor: first.nextCursor! });
    expect([second.items.map((h) => h.conversationId), second.nextCursor]).toEqual([['conv_0'], undefined]);
    await expect(searchConversations(store, 'ada', 'x'.repeat(201), {})).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});
