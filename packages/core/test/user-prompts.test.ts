import { sampleConversation, samplePrompt } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import {
  listPromptsByUserAndState,
  MemoryStore,
  type PromptRecord,
  type PromptStore,
  type Store,
} from '../src/index.ts';

const WAITING = 'waiting_for_approval';

/** A store written before `listByUserAndState`: its prompts have every other method. */
function olderStore(): { store: Store; prompts: PromptStore; reads: string[] } {
  const store = new MemoryStore();
  const reads: string[] = [];
  const { listByUserAndState: _, ...older } = store.prompts;
  const prompts: PromptStore = {
    ...older,
    listByState: async (state) => {
      reads.push(state);
      return store.prompts.listByState(state);
    },
  };
  return { store, prompts, reads };
}

async function waitingPrompts(store: Store, userId: string, count: number, at = 0): Promise<PromptRecord[]> {
  const created: PromptRecord[] = [];
  for (let i = 0; i < count; i++) {
    const conversation = sampleConversation(userId);
    await store.conversations.create(conversation);
    // Created at distinct times, out of creation order for half of them: the fallback orders by the time.
    const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, at + i)).toISOString();
    const prompt = samplePrompt(conversation, { state: WAITING, createdAt, updatedAt: createdAt });
    await store.prompts.create(prompt);
    created.push(prompt);
  }
  return created;
}

describe('listPromptsByUserAndState', () => {
  it("uses the store's own paged list when it has one", async () => {
    const store = new MemoryStore();
    const mine = await waitingPrompts(store, 'alice', 3);
    const first = await listPromptsByUserAndState(store.prompts, 'alice', WAITING, { limit: 2 });
    expect(first.items.map((p) => p.id)).toEqual([mine[0]!.id, mine[1]!.id]);
    expect(first).toEqual(await store.prompts.listByUserAndState!('alice', WAITING, { limit: 2 }));
  });

  it('pages a store written before it from listByState: oldest first, the user’s only, cursors exact', async () => {
    const { store, prompts, reads } = olderStore();
    const theirs = await waitingPrompts(store, 'bob', 3, 100);
    const later = await waitingPrompts(store, 'alice', 2, 50);
    const earlier = await waitingPrompts(store, 'alice', 3, 0);
    const pageOf = (cursor?: string) =>
      listPromptsByUserAndState(prompts, 'alice', WAITING, { limit: 2, ...(cursor && { cursor }) });
    const first = await pageOf();
    expect(first.items.map((p) => p.id)).toEqual([earlier[0]!.id, earlier[1]!.id]);
    await store.prompts.update(earlier[2]!.id, { state: 'running' }); // leaves before its page is read
    const second = await pageOf(first.nextCursor);
    expect(second.items.map((p) => p.id)).toEqual([later[0]!.id, later[1]!.id]);
    expect(second.nextCursor).toBeUndefined();
    expect(reads).toEqual([WAITING, WAITING]);
    const all = await listPromptsByUserAndState(prompts, 'bob', WAITING);
    expect([all.items.map((p) => p.id), all.nextCursor]).toEqual([theirs.map((p) => p.id), undefined]);
  });

  it('refuses a cursor it did not make, and a limit that is not a positive integer', async () => {
    const { store, prompts } = olderStore();
    await waitingPrompts(store, 'alice', 3);
    for (const cursor of [
      'junk',
      'a~b~c',
      '~prm_x',
      'not a time~prm_x',
      '2026-01-01T00:00:00.000Z~',
      '1~2',
      '2026-01-01T00:00:00Z~a b',
    ]) {
      await expect(
        listPromptsByUserAndState(prompts, 'alice', WAITING, { cursor }),
        cursor,
      ).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      for (const list of [prompts, store.prompts]) {
        await expect(
          listPromptsByUserAndState(list, 'alice', WAITING, { limit }),
          String(limit),
        ).rejects.toMatchObject({
          code: 'invalid_input',
        });
      }
    }
  });
});
