import { type Conversation, newId, type Page, type PageOptions, type Store } from '@tessera/core';
import { expect, it } from 'vitest';
import { sampleConversation, samplePrompt } from './sample-records.ts';

// A page of conversations holds at most `PAGE_PROMPT_IDS` prompt ids in all (the first conversation of a page
// whole, whatever its length): each conversation lists its whole history, and every fork of a long one the
// history it shares, so without the bound one user's page of 200 could be millions of ids.

const BUDGET = 5;

async function conversationWith(store: Store, prompts: number): Promise<Conversation> {
  const conversation = sampleConversation('user_a');
  await store.conversations.create(conversation);
  for (let i = 0; i < prompts; i++) {
    await store.prompts.create(samplePrompt(conversation, { input: `turn ${i}`, state: 'completed' }));
  }
  return (await store.conversations.get(conversation.id))!;
}

/** Every page of `list`, each checked against the budget; the pages' conversations. */
async function allPages(list: (page: PageOptions) => Promise<Page<Conversation>>, limit: number) {
  const pages: Conversation[][] = [];
  let cursor: string | undefined;
  do {
    const page = await list({ limit, ...(cursor !== undefined && { cursor }) });
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const ids = (page: Conversation[]) => page.reduce((sum, c) => sum + c.promptIds.length, 0);
  pages.forEach((page, i) => {
    expect(page.length).toBeGreaterThan(0);
    expect(page.length).toBeLessThanOrEqual(limit);
    if (page.length > 1) expect(ids(page)).toBeLessThanOrEqual(BUDGET);
    // Cut only where it had to be: the next page's first conversation would have passed the budget.
    const next = pages[i + 1]?.[0];
    if (next && page.length < limit) expect(ids(page) + next.promptIds.length).toBeGreaterThan(BUDGET);
  });
  return pages;
}

/**
 * `listByUser` and `listBranches` keep a page within its budget of prompt ids. `open` makes an empty store
 * whose budget is the number given (`PAGE_PROMPT_IDS` is what a store uses unless told otherwise).
 */
export function pageBudgetConformance(open: (pagePromptIds: number) => Promise<Store>): void {
  it('holds at most its budget of prompt ids in all, its first conversation whole; the next page goes on', async () => {
    const store = await open(BUDGET);
    const made: Conversation[] = [];
    for (const prompts of [3, 3, 0, 4, 7, 1, 2]) made.push(await conversationWith(store, prompts));
    const root = made[4]!; // 7 prompts: alone past the budget
    if (store.conversations.fork) {
      made.push(
        await store.conversations.fork({
          id: newId('conv'),
          userId: 'user_a',
          createdAt: root.createdAt,
          updatedAt: root.updatedAt,
          forkOf: { conversationId: root.id, promptId: root.promptIds[6]! }, // shares 6 prompts
        }),
      );
    }
    const pages = await allPages((page) => store.conversations.listByUser('user_a', page), 3);
    expect(pages.length).toBeGreaterThan(3);
    const listed = pages.flat();
    expect(listed.map((c) => c.id).sort()).toEqual(made.map((c) => c.id).sort());
    for (const conversation of listed) {
      expect(conversation).toEqual(await store.conversations.get(conversation.id));
    }
    if (!store.conversations.listBranches) return;
    const branches = await allPages((page) => store.conversations.listBranches!('user_a', root.id, page), 50);
    expect(branches).toHaveLength(made.length - 6); // 7 ids, then 6: one a page
    expect(
      branches
        .flat()
        .map((c) => c.id)
        .sort(),
    ).toEqual(
      made
        .slice(4, 5)
        .concat(made.slice(7))
        .map((c) => c.id)
        .sort(),
    );
  });
}
