import { createTestPlatform, reply, ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { createPlatform, definePlugin, MemoryStore, type Store } from '../src/index.ts';

const userId = 'user_test';

/** A conversation of three answered prompts on a platform over `store`. */
async function threeTurns(store: Store = new MemoryStore()) {
  const t = await createTestPlatform({
    store,
    userId,
    script: [reply('Paris.'), reply('Rome.'), reply('Oslo.')],
  });
  await t.platform.conversations.rename(t.conversation.id, userId, 'Capitals');
  const prompts = [];
  for (const input of ['Capital of France?', 'Capital of Italy?', 'Capital of Norway?'])
    prompts.push(await t.send(input));
  return { ...t, store, prompts };
}

describe('forking a conversation', () => {
  it('runs a fork with another model: the model reads only the branch, never the replaced turn', async () => {
    const t = await threeTurns();
    const fork = await t.platform.conversations.fork(t.conversation.id, userId, {
      promptId: t.prompts[2]!.id,
    });
    expect(fork).toMatchObject({
      title: 'Capitals',
      promptIds: [t.prompts[0]!.id, t.prompts[1]!.id],
      forkOf: { conversationId: t.conversation.id, promptId: t.prompts[2]!.id, rootId: t.conversation.id },
    });

    // Another platform over the same record, with another model: a replay from that point.
    const other = new ScriptedModel([reply('Madrid.')]);
    const replay = createPlatform({ store: t.store, model: other });
    const prompt = await replay.send({ conversationId: fork.id, userId, input: 'Capital of Spain?' });
    expect(prompt.state).toBe('completed');
    const read = other.read(0);
    expect(read).toContain('Capital of France?');
    expect(read).toContain('Rome.');
    expect(read).toContain('Capital of Spain?');
    expect(read).not.toContain('Norway');
    expect(read).not.toContain('Oslo');
    expect((await t.platform.conversations.prompts(fork.id, userId)).map((p) => p.input)).toEqual([
      'Capital of France?',
      'Capital of Italy?',
      'Capital of Spain?',
    ]);
  });

  it('never changes its source, whatever runs in the fork', async () => {
    const t = await threeTurns();
    const before = {
      conversation: await t.platform.conversations.get(t.conversation.id, userId),
      prompts: await t.platform.conversations.prompts(t.conversation.id, userId),
    };
    const fork = await t.platform.conversations.fork(t.conversation.id, userId, {
      promptId: t.prompts[1]!.id,
    });
    t.model.push(reply('Berlin.'));
    await t.platform.send({ conversationId: fork.id, userId, input: 'Capital of Germany?' });
    await t.platform.conversations.rename(fork.id, userId, 'Other capitals');
    expect(await t.platform.conversations.get(t.conversation.id, userId)).toEqual(before.conversation);
    expect(await t.platform.conversations.prompts(t.conversation.id, userId)).toEqual(before.prompts);
  });

  it("keeps a fork's history when its source is deleted", async () => {
    const t = await threeTurns();
    const fork = await t.platform.conversations.fork(t.conversation.id, userId, {
      promptId: t.prompts[2]!.id,
    });
    const history = await t.platform.conversations.prompts(fork.id, userId);
    await t.platform.conversations.delete(t.conversation.id, userId);
    expect(await t.platform.conversations.prompts(fork.id, userId)).toEqual(history);
    t.model.push(reply('Bern.'));
    await t.platform.send({ conversationId: fork.id, userId, input: 'Capital of Switzerland?' });
    expect(t.model.read()).toContain('Capital of Italy?');
  });

  it('names a fork: the source title, none at the first prompt (its first message names it), or the one given', async () => {
    const t = await threeTurns();
    const { fork } = t.platform.conversations;
    expect((await fork(t.conversation.id, userId, { promptId: t.prompts[0]!.id })).title).toBeUndefined();
    expect((await fork(t.conversation.id, userId, { promptId: t.prompts[1]!.id })).title).toBe('Capitals');
    expect(
      (await fork(t.conversation.id, userId, { promptId: t.prompts[1]!.id, title: ' Mine ' })).title,
    ).toBe('Mine');
    await expect(
      fork(t.conversation.id, userId, { promptId: t.prompts[1]!.id, title: ' ' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it("refuses another user's conversation and a prompt not in it, creating nothing", async () => {
    const t = await threeTurns();
    const other = await t.platform.conversations.create({ userId });
    const { fork } = t.platform.conversations;
    await expect(fork(t.conversation.id, 'user_other', { promptId: t.prompts[0]!.id })).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
    await expect(fork(other.id, userId, { promptId: t.prompts[0]!.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(fork(t.conversation.id, userId, { promptId: 'prm_missing' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await t.platform.conversations.list(userId)).items).toHaveLength(2);
  });

  it("lists a lineage's branches, forks of forks included", async () => {
    const t = await threeTurns();
    const { fork, branches } = t.platform.conversations;
    const first = await fork(t.conversation.id, userId, { promptId: t.prompts[2]!.id });
    t.model.push(reply('Madrid.'));
    const own = await t.platform.send({ conversationId: first.id, userId, input: 'Capital of Spain?' });
    const second = await fork(first.id, userId, { promptId: own.id });
    expect(second.forkOf?.rootId).toBe(t.conversation.id);
    const listed = (await branches(second.id, userId)).items.map((c) => c.id);
    expect(listed.sort()).toEqual([t.conversation.id, first.id, second.id].sort());
    await expect(branches(second.id, 'user_other')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("gives plugins the shared prompts (conversationForked); a plugin's throw undoes the fork", async () => {
    const seen: unknown[] = [];
    let fail = false;
    const plugin = definePlugin({
      id: 'watcher',
      conversationForked: (context) => {
        seen.push({ ...context, services: undefined });
        if (fail) throw new Error('cannot link');
      },
    });
    const store = new MemoryStore();
    const t = await createTestPlatform({
      store,
      userId,
      plugins: [plugin],
      script: [reply('a'), reply('b')],
    });
    const first = await t.send('one');
    const second = await t.send('two');
    const fork = await t.platform.conversations.fork(t.conversation.id, userId, { promptId: second.id });
    expect(seen).toEqual([
      {
        conversationId: fork.id,
        sourceId: t.conversation.id,
        userId,
        sharedPromptIds: [first.id],
        services: undefined,
      },
    ]);
    fail = true;
    await expect(
      t.platform.conversations.fork(t.conversation.id, userId, { promptId: second.id }),
    ).rejects.toThrow('cannot link');
    expect((await t.platform.conversations.list(userId)).items.map((c) => c.id).sort()).toEqual(
      [t.conversation.id, fork.id].sort(),
    );
    expect(await t.platform.conversations.prompts(t.conversation.id, userId)).toHaveLength(2);
  });

  it('is not_supported on a store without fork', async () => {
    const store = new MemoryStore();
    const { fork: _fork, ...conversations } = store.conversations;
    const bare: Store = { conversations, prompts: store.prompts, records: store.records };
    const t = await createTestPlatform({ store: bare, userId, script: [reply('a')] });
    const prompt = await t.send('one');
    await expect(
      t.platform.conversations.fork(t.conversation.id, userId, { promptId: prompt.id }),
    ).rejects.toMatchObject({ code: 'not_supported' });
  });
});
