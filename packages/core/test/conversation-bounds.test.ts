import { createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import {
  createPlatform,
  DEFAULT_MAX_BRANCHES,
  DEFAULT_MAX_CONVERSATIONS,
  DefinitionError,
  definePlugin,
  MemoryStore,
  type PlatformOptions,
  TesseraError,
} from '../src/index.ts';

const ALICE = 'alice';
const BOB = 'bob';

/**
 * A platform whose user `ALICE` has one conversation of two answered prompts; `fork` forks it at the second
 * (the fork shares the first), or a fork of it at that first prompt.
 */
async function withSource(options: Omit<PlatformOptions, 'model'> = {}) {
  const t = await createTestPlatform({
    ...options,
    userId: ALICE,
    script: [reply('Paris.'), reply('Rome.')],
  });
  const first = await t.send('Capital of France?');
  const second = await t.send('Capital of Italy?');
  const fork = (conversationId = t.conversation.id) =>
    t.platform.conversations.fork(conversationId, ALICE, {
      promptId: conversationId === t.conversation.id ? second.id : first.id,
    });
  const count = async (userId = ALICE) =>
    (await t.platform.conversations.list(userId, { limit: 200 })).items.length;
  const branches = async () =>
    (await t.platform.conversations.branches(t.conversation.id, ALICE)).items.length;
  return { ...t, fork, count, branches };
}

const create = (t: {
  platform: { conversations: { create(input: { userId: string }): Promise<unknown> } };
}) => t.platform.conversations.create({ userId: ALICE });

/**
 * A memory store whose conversation calls wait a few ms (seeded) before and after they act, so that
 * concurrent creates, counts and deletions interleave in many orders.
 */
function jitteryStore(): MemoryStore {
  const store = new MemoryStore();
  let seed = 7;
  const pause = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return new Promise((resolve) => setTimeout(resolve, seed % 20));
  };
  const calls = store.conversations as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['create', 'fork', 'countByUser', 'delete']) {
    const call = calls[name]!;
    calls[name] = async (...args) => {
      await pause();
      const result = await call(...args);
      await pause();
      return result;
    };
  }
  return store;
}

/** Rejects with a `TesseraError` of `code`. */
async function refused(promise: Promise<unknown>, code: string): Promise<TesseraError> {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(TesseraError.is(error) && error.code).toBe(code);
  return error as TesseraError;
}

describe("a user's conversations are bounded (maxConversations)", () => {
  it('refuses the one past the bound with too_many_conversations; another user is not counted; a deletion frees room', async () => {
    const t = await withSource({ maxConversations: 3 });
    await create(t);
    await create(t);
    const error = await refused(create(t), 'too_many_conversations');
    expect(error.message).toMatch(/You have 3 conversations, the most a user may have: delete some/);
    expect(await t.count()).toBe(3);

    // Bob's are his own.
    for (let i = 0; i < 3; i++) await t.platform.conversations.create({ userId: BOB });
    expect(await t.count(BOB)).toBe(3);

    // A fork is a conversation too.
    await refused(t.fork(), 'too_many_conversations');
    expect(await t.count()).toBe(3);

    const [oldest] = (await t.platform.conversations.list(ALICE)).items.slice(-1);
    await t.platform.conversations.delete(oldest!.id, ALICE);
    await create(t);
    expect(await t.count()).toBe(3);
  });

  it('never passes the bound with concurrent creates, and keeps none it refused', async () => {
    const t = await withSource({ store: jitteryStore(), maxConversations: 5 });
    for (let round = 0; round < 3; round++) {
      const before = await t.count();
      const settled = await Promise.allSettled(Array.from({ length: 20 }, () => create(t)));
      for (const result of settled)
        if (result.status === 'rejected') expect(result.reason.code).toBe('too_many_conversations');
      const kept = settled.filter((result) => result.status === 'fulfilled').length;
      expect(await t.count()).toBe(before + kept);
      expect(await t.count()).toBeLessThanOrEqual(5);
    }
    // What was refused left nothing: one at a time, the user fills the bound exactly.
    while ((await t.count()) < 5) await create(t);
    await refused(create(t), 'too_many_conversations');
    expect(await t.count()).toBe(5);
  });

  it('counts through pages of listByUser for a store without countByUser', async () => {
    const store = new MemoryStore();
    delete store.conversations.countByUser;
    const t = await withSource({ store, maxConversations: 3 });
    await create(t);
    await create(t);
    await refused(create(t), 'too_many_conversations');
    await refused(t.fork(), 'too_many_conversations');
    expect(await t.count()).toBe(3);
  });
});

describe("a lineage's branches are bounded (maxBranches)", () => {
  it('refuses the fork past the bound with too_many_branches, forks of forks counted; a deleted branch frees room', async () => {
    const t = await withSource({ maxBranches: 3 });
    const first = await t.fork();
    const second = await t.fork(first.id); // a fork of a fork: the same lineage
    expect(second.forkOf?.rootId).toBe(t.conversation.id);
    const error = await refused(t.fork(), 'too_many_branches');
    expect(error.message).toMatch(/lineage .* has 3 branches, the most one may have: delete a branch/);
    await refused(t.fork(first.id), 'too_many_branches');
    expect(await t.branches()).toBe(3);
    expect(await t.count()).toBe(3); // nothing refused was kept

    // Another lineage of hers, and one of another user's, are counted apart.
    t.model.push(reply('Oslo.'), reply('Bern.'));
    for (const userId of [ALICE, BOB]) {
      const root = await t.platform.conversations.create({ userId });
      const prompt = await t.platform.send({ conversationId: root.id, userId, input: 'Capital of Norway?' });
      for (let i = 0; i < 2; i++)
        await t.platform.conversations.fork(root.id, userId, { promptId: prompt.id });
    }

    await t.platform.conversations.delete(second.id, ALICE);
    await t.fork(first.id);
    expect(await t.branches()).toBe(3);
  });

  it('never passes the bound with concurrent forks', async () => {
    const t = await withSource({ store: jitteryStore(), maxBranches: 4 });
    for (let round = 0; round < 3; round++) {
      const settled = await Promise.allSettled(Array.from({ length: 20 }, () => t.fork()));
      for (const result of settled)
        if (result.status === 'rejected') expect(result.reason.code).toBe('too_many_branches');
      expect(await t.branches()).toBeLessThanOrEqual(4);
    }
    while ((await t.branches()) < 4) await t.fork();
    await refused(t.fork(), 'too_many_branches');
    expect(await t.branches()).toBe(4);
    expect(await t.count()).toBe(4);
  });

  it('tells no plugin of a fork it refused', async () => {
    const forked: string[] = [];
    const watcher = definePlugin({
      id: 'watcher',
      conversationForked: ({ conversationId }) => {
        forked.push(conversationId);
      },
    });
    const t = await withSource({ maxBranches: 2, plugins: [watcher] });
    const fork = await t.fork();
    await refused(t.fork(), 'too_many_branches');
    expect(forked).toEqual([fork.id]);
  });
});

describe('the bounds as options', () => {
  it('defaults to 10,000 conversations and 100 branches', () => {
    expect([DEFAULT_MAX_CONVERSATIONS, DEFAULT_MAX_BRANCHES]).toEqual([10_000, 100]);
  });

  it('refuses a bound that is not a positive integer when the platform is created', () => {
    const model = new ScriptedModel([]);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createPlatform({ model, maxConversations: bad })).toThrow(DefinitionError);
      expect(() => createPlatform({ model, maxBranches: bad })).toThrow(
        /maxBranches must be a positive integer/,
      );
    }
    expect(() => createPlatform({ model, maxConversations: 1, maxBranches: 1 })).not.toThrow();
  });
});
