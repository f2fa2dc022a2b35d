import { MemoryStore, newId, type PromptStore, type Store } from '@tessera/core';
import { sampleConversation, samplePrompt } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const pendingCall = (n: number) => ({
  type: 'tool',
  id: newId('call'),
  createdAt: at(n),
  callId: newId('model_call'),
  toolId: 'demo.delete_records',
  input: { names: [`r${n}`] },
  result: { type: 'pending', reason: 'Deleting needs your approval.' },
});
const pendingPause = (n: number) => ({
  type: 'pause',
  id: newId('pause'),
  createdAt: at(n),
  source: 'doom_loop',
  reason: 'The model repeated the same calls.',
});

type Seeded = { id: string; calls: string[]; pauses: string[] };

/** Waiting prompts of both users, each in a conversation of its own; some hold two calls, or a pause. */
async function seed(store: Store) {
  const made: Record<'alice' | 'bob', Seeded[]> = { alice: [], bob: [] };
  for (let n = 0; n < 11; n++) {
    const user = n % 3 === 2 ? 'bob' : 'alice';
    const conversation = sampleConversation(user, n);
    await store.conversations.create(conversation);
    const calls = n % 4 === 1 ? [pendingCall(n), pendingCall(n)] : [pendingCall(n)];
    const pauses = n % 2 === 0 ? [pendingPause(n)] : [];
    const prompt = samplePrompt(conversation, {
      state: 'waiting_for_approval',
      output: [...calls, ...pauses],
      createdAt: at(n),
    });
    await store.prompts.create(prompt);
    made[user].push({ id: prompt.id, calls: calls.map((c) => c.id), pauses: pauses.map((p) => p.id) });
  }
  return made;
}

type Item = { promptId: string; toolCallId?: string; pauseId?: string };

/** Follows `nextCursor` from the first page to the last, checking each page's size. */
async function everyPage(path: string, limit: number, token?: string) {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  do {
    const query = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await t!.request('GET', `${path}${query}`, { token });
    expect(page.status).toBe(200);
    expect(new Set(page.body.items.map((item: Item) => item.promptId)).size).toBeLessThanOrEqual(limit);
    pages.push(page.body.items);
    cursor = page.body.nextCursor;
    expect(pages.length).toBeLessThan(20);
  } while (cursor);
  return pages;
}

/** A store written before `listByUserAndState`: the server pages what `listByState` reads. */
function olderStore(): Store {
  const store = new MemoryStore();
  const { listByUserAndState: _, ...prompts } = store.prompts;
  return { conversations: store.conversations, prompts: prompts as PromptStore, records: store.records };
}

describe.each([
  ['the embedded store', () => undefined],
  ['the in-memory store', () => new MemoryStore()],
  ['a store without listByUserAndState', olderStore],
])('the lists of waiting calls and pauses, in pages (%s)', (name, makeStore) => {
  it("pages the user's pending calls and pauses by prompt, oldest first, and no one else's", async () => {
    const store = makeStore();
    t = await testServer([], store ? { store } : {});
    const made = await seed(t.server.platform.store);
    const everyCall = (who: typeof made.alice) => who.flatMap((p) => p.calls);
    const listed = vi.spyOn(t.server.platform.store.prompts, 'listByState');

    const approvals = await everyPage('/api/approvals', 3);
    expect(approvals.map((page) => page.length)).toEqual([4, 3, 3]); // 8 prompts, two with two calls
    expect(approvals.flat().map((item) => item.toolCallId)).toEqual(everyCall(made.alice));
    const pauses = await everyPage('/api/pauses', 2);
    expect(pauses.flat().map((item) => item.pauseId)).toEqual(made.alice.flatMap((p) => p.pauses));
    expect(pauses.map((page) => page.length)).toEqual([1, 1, 1, 1]); // 4 of 8 prompts paused
    // Bob's, and one page of everything when no limit is given.
    const bobs = await everyPage('/api/approvals', 1, BOB);
    expect(bobs.flat().map((item) => item.toolCallId)).toEqual(everyCall(made.bob));
    const whole = await t.request('GET', '/api/approvals');
    expect([whole.body.items.length, whole.body.nextCursor]).toEqual([10, undefined]);
    // Only a store without a list of its own is read whole.
    expect(listed.mock.calls.length > 0).toBe(name === 'a store without listByUserAndState');
  });

  it('answers a cursor it did not give, or a bad limit, with a 400', async () => {
    const store = makeStore();
    t = await testServer([], store ? { store } : {});
    await seed(t.server.platform.store);
    const forged = Buffer.from(JSON.stringify(['not a position'])).toString('base64url');
    for (const path of ['/api/approvals', '/api/pauses']) {
      for (const query of [
        'cursor=junk',
        `cursor=${forged}`,
        'cursor=1~2',
        'cursor=%00',
        'limit=0',
        'limit=201',
      ]) {
        const answer = await t.request('GET', `${path}?${query}`);
        expect([query, answer.status]).toEqual([query, 400]);
        expect(['invalid_input', 'invalid_request']).toContain(answer.body.error.code);
      }
    }
  });
});
