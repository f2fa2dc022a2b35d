import { type Conversation, newId, type PromptRecord, type Store } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { sampleConversation, samplePrompt, sampleTime } from './sample-records.ts';

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

/** A conversation with `count` ended prompts, each answered with a text output. */
async function conversationWith(store: Store, count: number, userId = 'user_a', at = 0) {
  const conversation = sampleConversation(userId, at);
  await store.conversations.create(conversation);
  const prompts: PromptRecord[] = [];
  for (let i = 0; i < count; i++) prompts.push(await promptIn(store, conversation, `turn ${i}`));
  return { conversation, prompts };
}

async function promptIn(store: Store, conversation: Conversation, input: string, state = 'completed') {
  const prompt = samplePrompt(conversation, { input, state: state as PromptRecord['state'] });
  await store.prompts.create(prompt);
  const answer = { type: 'text', id: newId('out'), createdAt: sampleTime(2), text: `answer to ${input}` };
  await store.prompts.appendOutput(prompt.id, answer);
  return (await store.prompts.get(prompt.id))!;
}

/** Forks `source` at `promptId` (the source's user's). */
const forkOf = (store: Store, source: Conversation, promptId: string, extra: { title?: string } = {}) =>
  store.conversations.fork!({
    id: newId('conv'),
    userId: source.userId,
    createdAt: sampleTime(100),
    updatedAt: sampleTime(100),
    forkOf: { conversationId: source.id, promptId },
    ...extra,
  });

/** `conversations.fork` and `listBranches` (optional): forks share their source's prompts by reference. */
export function forkConformance(getStore: () => Store): void {
  describe('forks', () => {
    forkHistory(getStore);
    forkRefusalsAndDeletion(getStore);
    forkListings(getStore);
  });
}

/** A fork's history: shared, then its own, at any depth. */
function forkHistory(getStore: () => Store): void {
  it('shares the prompts before the fork point by reference, then has its own; the source never changes', async ({
    skip,
  }) => {
    const store = getStore();
    if (!store.conversations.fork) skip('this store does not fork');
    const { conversation: source, prompts } = await conversationWith(store, 2);
    // The fork point may be the running prompt: only the ended ones before it are shared.
    const running = await promptIn(store, source, 'turn 2', 'running');
    await store.conversations.setPluginState(source.id, 'skills', { active: ['email'] });
    const before = await store.conversations.get(source.id);

    const fork = await forkOf(store, source, running.id, { title: 'Branch' });
    expect(fork).toMatchObject({
      userId: 'user_a',
      title: 'Branch',
      promptIds: ids(prompts),
      pluginState: { skills: { active: ['email'] } },
      forkOf: { conversationId: source.id, promptId: running.id, rootId: source.id },
    });
    expect(await store.conversations.get(fork.id)).toEqual(fork);
    expect(await store.prompts.listByConversation(fork.id)).toEqual(prompts);

    const own = await promptIn(store, fork, 'another turn 2');
    await store.conversations.setPluginState(fork.id, 'skills', { active: [] });
    expect((await store.conversations.get(fork.id))?.promptIds).toEqual([...ids(prompts), own.id]);
    expect(ids(await store.prompts.listByConversation(fork.id))).toEqual([...ids(prompts), own.id]);
    // The shared prompts are the source's: same records, still its own.
    expect((await store.prompts.get(prompts[0]!.id))?.conversationId).toBe(source.id);
    expect(await store.conversations.get(source.id)).toEqual(before);
    expect(ids(await store.prompts.listByConversation(source.id))).toEqual([...ids(prompts), running.id]);
  });

  it('forks a fork: the whole history is listed, its root kept, at any depth', async ({ skip }) => {
    const store = getStore();
    if (!store.conversations.fork) skip('this store does not fork');
    const { conversation: root, prompts } = await conversationWith(store, 2);
    let current = root;
    let expected = ids(prompts);
    for (let depth = 0; depth < 12; depth++) {
      const last = await promptIn(store, current, `depth ${depth}`);
      const fork = await forkOf(store, current, last.id);
      expect(fork.forkOf).toEqual({ conversationId: current.id, promptId: last.id, rootId: root.id });
      expect(fork.promptIds).toEqual(expected);
      const own = await promptIn(store, fork, `own ${depth}`);
      expected = [...expected, own.id];
      current = fork;
    }
    expect(ids(await store.prompts.listByConversation(current.id))).toEqual(expected);
    expect((await store.conversations.get(current.id))?.promptIds).toEqual(expected);
  });

  it('forks at the first prompt with an empty history', async ({ skip }) => {
    const store = getStore();
    if (!store.conversations.fork) skip('this store does not fork');
    const { conversation: source, prompts } = await conversationWith(store, 2);
    const fork = await forkOf(store, source, prompts[0]!.id);
    expect(fork.promptIds).toEqual([]);
    expect(fork.title).toBeUndefined();
    expect(await store.prompts.listByConversation(fork.id)).toEqual([]);
  });
}

/** What a fork refuses, and what deleting its source leaves. */
function forkRefusalsAndDeletion(getStore: () => Store): void {
  it("refuses an unknown prompt, another conversation's prompt and another user's conversation, creating nothing", async ({
    skip,
  }) => {
    const store = getStore();
    if (!store.conversations.fork) skip('this store does not fork');
    const { conversation: mine, prompts } = await conversationWith(store, 1);
    const { prompts: otherPrompts } = await conversationWith(store, 1, 'user_a', 10);
    const { conversation: theirs, prompts: theirPrompts } = await conversationWith(store, 1, 'user_b', 20);
    const attempt = (conversationId: string, promptId: string, userId = 'user_a') =>
      store.conversations.fork!({
        id: newId('conv'),
        userId,
        createdAt: sampleTime(100),
        updatedAt: sampleTime(100),
        forkOf: { conversationId, promptId },
      });
    const notFound = { code: 'not_found' };
    await expect(attempt(mine.id, 'prm_missing')).rejects.toMatchObject(notFound);
    await expect(attempt(mine.id, otherPrompts[0]!.id)).rejects.toMatchObject(notFound);
    await expect(attempt(theirs.id, theirPrompts[0]!.id)).rejects.toMatchObject(notFound);
    await expect(attempt('conv_missing', prompts[0]!.id)).rejects.toMatchObject(notFound);
    const existing = { ...(await forkOf(store, mine, prompts[0]!.id)) };
    await expect(
      store.conversations.fork!({
        ...existing,
        forkOf: { conversationId: mine.id, promptId: prompts[0]!.id },
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect((await store.conversations.listByUser('user_a')).items).toHaveLength(3);
    expect((await store.conversations.listByUser('user_b')).items).toHaveLength(1);
  });

  it("keeps a fork's history when its source is deleted, and deletes shared prompts with the last history holding them", async ({
    skip,
  }) => {
    const store = getStore();
    if (!store.conversations.fork) skip('this store does not fork');
    const { conversation: source, prompts } = await conversationWith(store, 3);
    const fork = await forkOf(store, source, prompts[2]!.id);
    const own = await promptIn(store, fork, 'own');
    const forkOfFork = await forkOf(store, (await store.conversations.get(fork.id))!, own.id);
    const history = await store.prompts.listByConversation(fork.id);

    expect(await store.conversations.delete(source.id)).toBe(true);
    expect(await store.conversations.get(source.id)).toBeUndefined();
    expect(await store.prompts.get(prompts[2]!.id)).toBeUndefined(); // shared by no one
    expect(await store.prompts.listByConversation(fork.id)).toEqual(history);
    expect((await store.conversations.get(fork.id))?.promptIds).toEqual(ids(history));

    // The fork of the fork still holds the source's first two prompts and the fork's none.
    expect(await store.conversations.delete(fork.id)).toBe(true);
    expect(ids(await store.prompts.listByConversation(forkOfFork.id))).toEqual(ids(prompts.slice(0, 2)));
    expect(await store.prompts.get(own.id)).toBeUndefined();
    expect(await store.prompts.get(prompts[0]!.id)).toMatchObject({
      output: [{ text: 'answer to turn 0' }],
    });

    expect(await store.conversations.delete(forkOfFork.id)).toBe(true);
    for (const prompt of prompts) expect(await store.prompts.get(prompt.id)).toBeUndefined();
  });
}

/** Branches listed, and a fork's history searched. */
function forkListings(getStore: () => Store): void {
  it("lists a lineage's branches, most recently updated first, in pages, and pages forks among conversations", async ({
    skip,
  }) => {
    const store = getStore();
    if (!store.conversations.fork || !store.conversations.listBranches) skip('this store does not fork');
    const { conversation: root, prompts } = await conversationWith(store, 2);
    const first = await forkOf(store, root, prompts[1]!.id);
    await promptIn(store, first, 'first branch');
    const second = await forkOf(store, root, prompts[1]!.id);
    await promptIn(store, second, 'second branch');
    const { conversation: unrelated } = await conversationWith(store, 1, 'user_a', 5);
    await conversationWith(store, 1, 'user_b', 6);

    const page1 = await store.conversations.listBranches!('user_a', root.id, { limit: 2 });
    expect(page1.items).toHaveLength(2);
    const page2 = await store.conversations.listBranches!('user_a', root.id, {
      limit: 2,
      cursor: page1.nextCursor,
    });
    expect(page2.nextCursor).toBeUndefined();
    const branches = [...page1.items, ...page2.items];
    expect(ids(branches).sort()).toEqual([root.id, first.id, second.id].sort());
    // Most recently updated first (ties by id, descending), as listByUser.
    const order = (a: Conversation, b: Conversation) =>
      b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id);
    expect(ids(branches)).toEqual(ids([...branches].sort(order)));
    expect((await store.conversations.listBranches!('user_b', root.id)).items).toEqual([]);

    const all = [];
    let cursor: string | undefined;
    do {
      const page = await store.conversations.listByUser('user_a', { limit: 1, ...(cursor && { cursor }) });
      all.push(...ids(page.items));
      cursor = page.nextCursor;
    } while (cursor);
    expect(all.sort()).toEqual([root.id, first.id, second.id, unrelated.id].sort());
  });

  it("counts a lineage's branches as listBranches lists them (countByUser with rootId), forks of forks too", async ({
    skip,
  }) => {
    const store = getStore();
    if (!store.conversations.fork || !store.conversations.countByUser)
      skip('this store does not fork or count');
    const { conversation: root, prompts } = await conversationWith(store, 2);
    const first = await forkOf(store, root, prompts[1]!.id);
    await forkOf(store, first, prompts[0]!.id);
    await conversationWith(store, 1, 'user_a', 5);
    const count = (userId: string, rootId: string) => store.conversations.countByUser!(userId, { rootId });
    expect(await count('user_a', root.id)).toBe(3);
    expect(await count('user_b', root.id)).toBe(0);
    expect(await store.conversations.countByUser!('user_a')).toBe(4);
    // The root deleted, its forks are still the lineage.
    await store.conversations.delete(root.id);
    expect(await count('user_a', root.id)).toBe(2);
    expect((await store.conversations.listBranches!('user_a', root.id)).items).toHaveLength(2);
  });

  it("searches a fork's shared prompts as its own", async ({ skip }) => {
    const store = getStore();
    if (!store.conversations.fork || !store.conversations.search) skip('this store does not fork or search');
    const { conversation: source, prompts } = await conversationWith(store, 2);
    const fork = await forkOf(store, source, prompts[1]!.id);
    const hits = await store.conversations.search!('user_a', 'turn 0');
    expect(hits.items.map((h) => [h.conversationId, h.promptId, h.field]).sort()).toEqual(
      [
        [source.id, prompts[0]!.id, 'input'],
        [source.id, prompts[0]!.id, 'output'],
        [fork.id, prompts[0]!.id, 'input'],
        [fork.id, prompts[0]!.id, 'output'],
      ].sort(),
    );
  });
}
