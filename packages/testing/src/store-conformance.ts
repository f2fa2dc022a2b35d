import {
  ConflictError,
  type Conversation,
  ConversationBusyError,
  emptyUsage,
  newId,
  type PromptRecord,
  type QueuedMessage,
  type Store,
  VersionConflictError,
} from '@tessera/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWithHistoryConformance } from './create-with-history-conformance.ts';
import { forkConformance } from './fork-conformance.ts';
import { sampleConversation, samplePrompt, sampleTime } from './sample-records.ts';

// Exported here first; kept for the apps that import them from this entry.
export { pageBudgetConformance } from './page-budget-conformance.ts';
export { sampleConversation, samplePrompt } from './sample-records.ts';

export type StoreFactory = () => Store | Promise<Store>;

const toolOutput = (id: string) => ({
  type: 'tool',
  id,
  createdAt: sampleTime(2),
  callId: `call_${id}`,
  toolId: 'demo.echo',
  input: { text: 'a' },
  result: { type: 'pending', reason: 'check' },
});

/** A message for a conversation's list of waiting messages. */
const queuedMessage = (
  conversation: Conversation,
  mode: 'steer' | 'queue',
  input: string,
): QueuedMessage => ({
  id: newId('msg'),
  conversationId: conversation.id,
  userId: conversation.userId,
  mode,
  input,
  createdAt: sampleTime(3),
});

/**
 * The behaviour every `Store` must have. A store package runs it against its own implementation:
 *
 * ```ts
 * describeStoreConformance('my store', async () => createMyStore(...));
 * ```
 */
export function describeStoreConformance(name: string, createStore: StoreFactory): void {
  describe(`store conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await createStore();
    });
    afterEach(async () => {
      await store.close?.();
    });
    /** The store of the running test (each test has a new one). */
    const getStore = () => store;

    conversationConformance(getStore);
    historyReadConformance(getStore);
    promptConformance(getStore);
    createWithHistoryConformance(getStore);
    recordConformance(getStore);
    messageConformance(getStore);
    searchConformance(getStore);
    forkConformance(getStore);
  });
}

/** `conversations.search` (optional): full-text search of one user's titles, inputs and text answers. */
function searchConformance(getStore: () => Store): void {
  describe('search', () => {
    const text = (id: string, value: string) => ({ type: 'text', id, createdAt: sampleTime(2), text: value });
    const highlighted = (hit: { snippet: { text: string; highlights: [number, number][] } }) =>
      hit.snippet.highlights.map(([start, end]) => hit.snippet.text.slice(start, end));

    it("finds words in titles, inputs and answers, case-insensitively, and no one else's", async ({
      skip,
    }) => {
      const store = getStore();
      const search = store.conversations.search?.bind(store.conversations);
      if (!search) skip('this store does not search');
      const older = { ...sampleConversation('user_a', 0), title: 'Trip planning' };
      const newer = { ...sampleConversation('user_a', 10), title: 'Warehouse inventory' };
      const theirs = { ...sampleConversation('user_b', 20), title: 'Rome inventory' };
      for (const c of [older, newer, theirs]) await store.conversations.create(c);
      const asked = samplePrompt(older, { input: 'What is the capital of Italy?', state: 'completed' });
      await store.prompts.create(asked);
      await store.prompts.appendOutput(
        asked.id,
        text('out_1', 'The capital of Italy is ROME, on the Tiber.'),
      );
      const hidden = samplePrompt(older, { input: 'Rome secret', visible: false, state: 'completed' });
      await store.prompts.create(hidden);
      await store.prompts.create(samplePrompt(theirs, { input: 'Rome again', state: 'completed' }));
      const second = samplePrompt(newer, { input: 'Count the inventory please', state: 'completed' });
      await store.prompts.create(second);

      const rome = await search!('user_a', 'rome');
      expect(rome.items).toEqual([
        {
          conversationId: older.id,
          promptId: asked.id,
          title: 'Trip planning',
          field: 'output',
          snippet: expect.objectContaining({ text: 'The capital of Italy is ROME, on the Tiber.' }),
        },
      ]);
      expect(highlighted(rome.items[0]!)).toEqual(['ROME']);
      expect(rome.nextCursor).toBeUndefined();

      // Newest conversation first; in one, its title before its prompts.
      const inventory = await search!('user_a', 'INVENTORY');
      expect(inventory.items.map((h) => [h.conversationId, h.field, h.promptId])).toEqual([
        [newer.id, 'title', undefined],
        [newer.id, 'input', second.id],
      ]);
      expect(inventory.items.map(highlighted)).toEqual([['inventory'], ['inventory']]);
      // Every word must be in the text; whole words only.
      expect((await search!('user_a', 'capital italy')).items.map((h) => h.field)).toEqual([
        'input',
        'output',
      ]);
      expect((await search!('user_a', 'capital paris')).items).toEqual([]);
      expect((await search!('user_a', 'Rom')).items).toEqual([]);
      expect((await search!('user_c', 'rome')).items).toEqual([]);
      expect((await search!('user_b', 'rome')).items.every((h) => h.conversationId === theirs.id)).toBe(true);
    });

    it('pages hits, and takes any query: operators are plain text, bounds are refused', async ({ skip }) => {
      const store = getStore();
      const search = store.conversations.search?.bind(store.conversations);
      if (!search) skip('this store does not search');
      const conversations = [];
      for (let i = 0; i < 5; i++) {
        const c = { ...sampleConversation('user_a', i), title: `Note ${i} about apples` };
        await store.conversations.create(c);
        conversations.push(c);
      }
      const expected = conversations.map((c) => c.id).reverse();
      const first = await search!('user_a', 'apples', { limit: 2 });
      const second = await search!('user_a', 'apples', { limit: 2, cursor: first.nextCursor });
      const third = await search!('user_a', 'apples', { limit: 2, cursor: second.nextCursor });
      expect(third.nextCursor).toBeUndefined();
      expect([...first.items, ...second.items, ...third.items].map((h) => h.conversationId)).toEqual(
        expected,
      );
      for (const query of ["apples';--", '!(apples) & | <-> :*', '"apples"', 'apples\u0000']) {
        expect((await search!('user_a', query)).items.map((h) => h.conversationId)).toEqual(expected);
      }
      for (const query of ['', '   ', '&|!()', "'", "x' OR '1'='1"])
        expect((await search!('user_a', query)).items).toEqual([]);
      const refused = expect.objectContaining({ code: 'invalid_input' });
      await expect(search!('user_a', 'a'.repeat(201))).rejects.toEqual(refused);
      await expect(
        search!('user_a', Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ')),
      ).rejects.toEqual(refused);
      await expect(search!('user_a', 'apples', { cursor: 'not-a-cursor' })).rejects.toEqual(refused);
      await expect(search!('user_a', 'apples', { limit: 101 })).rejects.toEqual(refused);
      await expect(search!('user_a', 'apples', { limit: 0 })).rejects.toEqual(refused);
    });
  });
}

/** The store of the running test, and a conversation created in it for its prompts. */
type PromptFixture = () => { store: Store; conversation: Conversation };

/** Three running prompts, each in a conversation of its own (one prompt may be active per conversation). */
async function threeRunningPrompts(store: Store): Promise<[PromptRecord, PromptRecord, PromptRecord]> {
  const created = async (i: number) => {
    const conversation = sampleConversation('user_a', i);
    await store.conversations.create(conversation);
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    return prompt;
  };
  return [await created(0), await created(1), await created(2)];
}

function conversationConformance(getStore: () => Store): void {
  describe('conversations', () => {
    it('creates and reads a conversation; a missing one is undefined', async () => {
      const store = getStore();
      const conversation = sampleConversation();
      await store.conversations.create(conversation);
      expect(await store.conversations.get(conversation.id)).toEqual(conversation);
      expect(await store.conversations.get('conv_missing')).toBeUndefined();
    });

    it('lists only the user’s conversations, most recently updated first, in pages', async () => {
      const store = getStore();
      const mine = [0, 1, 2, 3, 4].map((i) => sampleConversation('user_a', i * 1000));
      for (const c of mine) await store.conversations.create(c);
      await store.conversations.create(sampleConversation('user_b', 9000));
      const first = await store.conversations.listByUser('user_a', { limit: 3 });
      expect(first.items.map((c) => c.id)).toEqual([mine[4]!.id, mine[3]!.id, mine[2]!.id]);
      expect(first.nextCursor).toBeDefined();
      const second = await store.conversations.listByUser('user_a', { limit: 3, cursor: first.nextCursor });
      expect(second.items.map((c) => c.id)).toEqual([mine[1]!.id, mine[0]!.id]);
      expect(second.nextCursor).toBeUndefined();
    });

    it('counts only the user’s conversations (countByUser), a deleted one no more', async ({ skip }) => {
      const store = getStore();
      if (!store.conversations.countByUser) skip('this store does not count');
      const mine = [0, 1, 2].map((i) => sampleConversation('user_a', i * 1000));
      for (const c of mine) await store.conversations.create(c);
      await store.conversations.create(sampleConversation('user_b', 9000));
      expect(await store.conversations.countByUser!('user_a')).toBe(3);
      expect(await store.conversations.countByUser!('user_b')).toBe(1);
      expect(await store.conversations.countByUser!('user_c')).toBe(0);
      await store.conversations.delete(mine[0]!.id);
      expect(await store.conversations.countByUser!('user_a')).toBe(2);
    });

    it('writes one plugin’s state without touching the others', async () => {
      const store = getStore();
      const conversation = sampleConversation();
      await store.conversations.create(conversation);
      await store.conversations.setPluginState(conversation.id, 'skills', { active: ['email'] });
      await store.conversations.setPluginState(conversation.id, 'triggers', { from: null });
      await store.conversations.setPluginState(conversation.id, 'skills', { active: [] });
      const stored = await store.conversations.get(conversation.id);
      expect(stored?.pluginState).toEqual({ skills: { active: [] }, triggers: { from: null } });
    });

    it('renames a conversation, and refuses a missing one', async () => {
      const store = getStore();
      const conversation = sampleConversation();
      await store.conversations.create(conversation);
      await store.conversations.setPluginState(conversation.id, 'skills', { active: ['email'] });
      await store.conversations.rename(conversation.id, 'Quarterly report');
      expect(await store.conversations.get(conversation.id)).toMatchObject({
        title: 'Quarterly report',
        pluginState: { skills: { active: ['email'] } },
      });
      await expect(store.conversations.rename('conv_missing', 'x')).rejects.toMatchObject({
        code: 'not_found',
      });
    });

    it('deletes a conversation with its prompts', async () => {
      const store = getStore();
      const conversation = sampleConversation();
      await store.conversations.create(conversation);
      const prompt = samplePrompt(conversation, { state: 'completed' });
      await store.prompts.create(prompt);
      expect(await store.conversations.delete(conversation.id)).toBe(true);
      expect(await store.conversations.get(conversation.id)).toBeUndefined();
      expect(await store.prompts.get(prompt.id)).toBeUndefined();
      expect(await store.conversations.delete(conversation.id)).toBe(false);
    });
  });
}

/** `conversations.getWithHistory` (optional): what starting a prompt reads, at once. */
function historyReadConformance(getStore: () => Store): void {
  describe('conversation with history', () => {
    it('reads the user’s conversation with its history at once (getWithHistory), as get and listByConversation do; another user’s is undefined', async ({
      skip,
    }) => {
      const store = getStore();
      if (!store.conversations.getWithHistory) skip('this store has no getWithHistory');
      const read = (id: string, userId: string) => store.conversations.getWithHistory!(id, userId);
      const both = async (id: string) => ({
        conversation: await store.conversations.get(id),
        history: await store.prompts.listByConversation(id),
      });
      const conversation = sampleConversation();
      await store.conversations.create(conversation);
      await store.conversations.setPluginState(conversation.id, 'skills', { active: ['email'] });
      expect(await read(conversation.id, conversation.userId)).toEqual(await both(conversation.id));
      for (const input of ['first', 'second']) {
        const prompt = samplePrompt(conversation, { input, state: 'completed' });
        await store.prompts.create(prompt);
        const answer = { type: 'text', id: newId('out'), createdAt: sampleTime(2), text: input };
        await store.prompts.appendOutput(prompt.id, answer);
      }
      await store.prompts.create(samplePrompt(conversation, { input: 'third' }));
      const read3 = await read(conversation.id, conversation.userId);
      expect(read3).toEqual(await both(conversation.id));
      expect(read3?.history.map((p) => p.input)).toEqual(['first', 'second', 'third']);
      expect(await read(conversation.id, 'user_b')).toBeUndefined();
      expect(await read('conv_missing', conversation.userId)).toBeUndefined();
      if (store.conversations.fork) {
        const fork = await store.conversations.fork({
          id: newId('conv'),
          userId: conversation.userId,
          createdAt: sampleTime(5),
          updatedAt: sampleTime(5),
          forkOf: { conversationId: conversation.id, promptId: read3!.history[1]!.id },
        });
        await store.prompts.create(samplePrompt(fork, { input: 'own' }));
        const forked = await read(fork.id, fork.userId);
        expect(forked).toEqual(await both(fork.id));
        expect(forked?.history.map((p) => p.input)).toEqual(['first', 'own']);
      }
    });
  });
}

function promptConformance(getStore: () => Store): void {
  describe('prompts', () => {
    let conversation: Conversation;
    beforeEach(async () => {
      conversation = sampleConversation();
      await getStore().conversations.create(conversation);
    });
    const fixture: PromptFixture = () => ({ store: getStore(), conversation });

    promptCreation(fixture);
    promptUpdatesAndLookups(fixture);
    orphanClaims(fixture);
    outputRemovalsAndAppends(fixture);
  });
  userStateLists(getStore);
}

/** Creating prompts: at most one active per conversation, no id twice. */
function promptCreation(fixture: PromptFixture): void {
  it('creates a prompt and appends its id to the conversation', async () => {
    const { store, conversation } = fixture();
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    expect(await store.prompts.get(prompt.id)).toEqual(prompt);
    expect((await store.conversations.get(conversation.id))?.promptIds).toEqual([prompt.id]);
  });

  it('refuses a second active prompt in a conversation, and allows one after the first ended', async () => {
    const { store, conversation } = fixture();
    const first = samplePrompt(conversation);
    await store.prompts.create(first);
    await expect(store.prompts.create(samplePrompt(conversation))).rejects.toBeInstanceOf(
      ConversationBusyError,
    );
    await store.prompts.update(first.id, { state: 'waiting_for_approval' });
    await expect(store.prompts.create(samplePrompt(conversation))).rejects.toBeInstanceOf(
      ConversationBusyError,
    );
    await store.prompts.update(first.id, { state: 'completed' });
    const second = samplePrompt(conversation, { createdAt: sampleTime(5) });
    await store.prompts.create(second);
    expect((await store.prompts.listByConversation(conversation.id)).map((p) => p.id)).toEqual([
      first.id,
      second.id,
    ]);
  });

  it('refuses a prompt whose id exists, changing nothing', async () => {
    const { store, conversation } = fixture();
    const first = samplePrompt(conversation);
    await store.prompts.create(first);
    await store.prompts.update(first.id, { state: 'completed' });
    await expect(store.prompts.create({ ...first, input: 'again' })).rejects.toBeInstanceOf(ConflictError);
    expect((await store.prompts.get(first.id))?.input).toBe(first.input);
    expect((await store.conversations.get(conversation.id))?.promptIds).toEqual([first.id]);
  });

  it('admits exactly one of many concurrent creates in one conversation', async () => {
    const { store, conversation } = fixture();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => store.prompts.create(samplePrompt(conversation))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await store.conversations.get(conversation.id))?.promptIds).toHaveLength(1);
  });
}

/** Outputs appended and replaced, compare-and-set updates, and the lookups by tool call and state. */
function promptUpdatesAndLookups(fixture: PromptFixture): void {
  it('appends outputs in order and replaces one in place by id', async () => {
    const { store, conversation } = fixture();
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    const text = { type: 'text', id: 'out_1', createdAt: sampleTime(2), text: 'Checking.' };
    await store.prompts.appendOutput(prompt.id, text);
    await store.prompts.appendOutput(prompt.id, toolOutput('call_a'));
    const widget = {
      type: 'x-test.badge',
      id: 'out_3',
      createdAt: sampleTime(3),
      toolCallId: 'call_a',
      label: 'ok',
      n: 3,
    };
    await store.prompts.appendOutput(prompt.id, widget);
    const decided = { ...toolOutput('call_a'), result: { type: 'success', output: { ok: true } } };
    await store.prompts.update(prompt.id, { outputs: [decided] });
    const stored = await store.prompts.get(prompt.id);
    expect(stored?.output).toEqual([text, decided, widget]);
    await expect(store.prompts.update(prompt.id, { outputs: [toolOutput('nope')] })).rejects.toThrow();
  });

  it('applies a compare-and-set update only in the expected state', async () => {
    const { store, conversation } = fixture();
    const prompt = samplePrompt(conversation, { state: 'waiting_for_approval' });
    await store.prompts.create(prompt);
    await store.prompts.appendOutput(prompt.id, toolOutput('call_a'));
    const approved = { ...toolOutput('call_a'), result: undefined, startedAt: sampleTime(4) };
    const claims = await Promise.all([
      store.prompts.update(
        prompt.id,
        { state: 'running', outputs: [approved] },
        { expectState: ['waiting_for_approval'] },
      ),
      store.prompts.update(
        prompt.id,
        { state: 'running', outputs: [approved] },
        { expectState: ['waiting_for_approval'] },
      ),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await store.prompts.get(prompt.id))?.state).toBe('running');
  });

  it('updates usage, state and stop reason', async () => {
    const { store, conversation } = fixture();
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    const usage = { ...emptyUsage(), inputTokens: 12, outputTokens: 3, totalTokens: 15, modelCalls: 1 };
    const stopReason = { code: 'max_rounds', message: 'Stopped.' };
    expect(await store.prompts.update(prompt.id, { usage, state: 'completed', stopReason })).toBe(true);
    expect(await store.prompts.get(prompt.id)).toMatchObject({ usage, state: 'completed', stopReason });
    // The writer's time, when it gives one, is the prompt's (the loop keeps the same prompt as the store).
    await store.prompts.update(prompt.id, { state: 'failed', updatedAt: sampleTime(50) });
    expect((await store.prompts.get(prompt.id))?.updatedAt).toBe(sampleTime(50));
  });

  it('finds a prompt by a tool call id, and prompts by state', async () => {
    const { store, conversation } = fixture();
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    await store.prompts.appendOutput(prompt.id, toolOutput('call_find'));
    expect((await store.prompts.findByToolCall('call_find'))?.id).toBe(prompt.id);
    expect(await store.prompts.findByToolCall('call_missing')).toBeUndefined();
    expect((await store.prompts.listByState('running')).map((p) => p.id)).toContain(prompt.id);
    expect((await store.prompts.listByState('completed')).map((p) => p.id)).not.toContain(prompt.id);
  });
}

/** Recovery: the running prompts whose process is gone, claimed by the caller. */
function orphanClaims(fixture: PromptFixture): void {
  it('claims the running prompts it may recover, with their outputs, and no others', async () => {
    const { store } = fixture();
    const [running, waiting, done] = await threeRunningPrompts(store);
    await store.prompts.appendOutput(running.id, toolOutput('call_orphan'));
    await store.prompts.update(waiting.id, { state: 'waiting_for_approval' });
    await store.prompts.update(done.id, { state: 'completed' });
    const claimed = await store.prompts.claimOrphans();
    expect(claimed.map((p) => p.id)).toContain(running.id);
    expect(claimed.map((p) => p.id)).not.toContain(waiting.id);
    expect(claimed.map((p) => p.id)).not.toContain(done.id);
    expect(claimed.find((p) => p.id === running.id)?.output.map((o) => o.id)).toEqual(['call_orphan']);
    // Claiming changes nothing in the record itself.
    expect(await store.prompts.get(running.id)).toEqual(claimed.find((p) => p.id === running.id));
  });

  it('claims orphans except the prompts the caller runs, and one prompt by id only while it runs', async () => {
    const { store } = fixture();
    const [mine, orphan, waiting] = await threeRunningPrompts(store);
    await store.prompts.update(waiting.id, { state: 'waiting_for_approval' });
    const claimed = (await store.prompts.claimOrphans({ except: [mine.id] })).map((p) => p.id);
    expect(claimed).toContain(orphan.id);
    expect(claimed).not.toContain(mine.id);
    expect(claimed).not.toContain(waiting.id);

    expect(await store.prompts.claimOrphan(orphan.id)).toEqual(await store.prompts.get(orphan.id));
    expect(await store.prompts.claimOrphan(waiting.id)).toBeUndefined();
    expect(await store.prompts.claimOrphan('prm_missing')).toBeUndefined();
    await store.prompts.update(orphan.id, { state: 'cancelled' });
    expect(await store.prompts.claimOrphan(orphan.id)).toBeUndefined();
  });
}

/** Outputs taken out, appended in an update, and kept as they were written. */
function outputRemovalsAndAppends(fixture: PromptFixture): void {
  it('removes outputs by id, keeps the others in order, and appends after them', async () => {
    const { store, conversation } = fixture();
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    const text = (id: string) => ({ type: 'text', id, createdAt: sampleTime(2), text: id });
    for (const id of ['out_1', 'out_2', 'out_3', 'out_4'])
      await store.prompts.appendOutput(prompt.id, text(id));
    await store.prompts.appendOutput(prompt.id, toolOutput('call_kept'));
    expect(await store.prompts.update(prompt.id, { removeOutputs: ['out_2', 'out_4', 'out_missing'] })).toBe(
      true,
    );
    await store.prompts.appendOutput(prompt.id, text('out_5'));
    const read = await store.prompts.get(prompt.id);
    expect(read?.output.map((o) => o.id)).toEqual(['out_1', 'out_3', 'call_kept', 'out_5']);
    expect(await store.prompts.findByToolCall('out_2')).toBeUndefined();
    expect((await store.prompts.findByToolCall('call_kept'))?.id).toBe(prompt.id);
    // Removing and replacing in one update: both apply.
    const decided = { ...toolOutput('call_kept'), result: { type: 'success', output: 1 } };
    await store.prompts.update(prompt.id, { outputs: [decided], removeOutputs: ['out_1'] });
    expect((await store.prompts.get(prompt.id))?.output).toEqual([text('out_3'), decided, text('out_5')]);
  });

  it('appends in an update, with the state and usage, atomically, when it says it can', async ({ skip }) => {
    const { store, conversation } = fixture();
    if (!store.prompts.appendsInUpdate) skip('this store does not append in update');
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    await store.prompts.appendOutput(prompt.id, toolOutput('call_a'));
    const text = (id: string) => ({ type: 'text', id, createdAt: sampleTime(3), text: id });
    const decided = { ...toolOutput('call_a'), result: { type: 'success', output: 2 } };
    const usage = { ...emptyUsage(), inputTokens: 5, outputTokens: 1, totalTokens: 6, modelCalls: 1 };
    const patch = { outputs: [decided], append: [text('out_1'), toolOutput('call_b')], usage };
    // Refused by its compare-and-set: nothing of it is written.
    expect(await store.prompts.update(prompt.id, patch, { expectState: ['completed'] })).toBe(false);
    expect((await store.prompts.get(prompt.id))?.output.map((o) => o.id)).toEqual(['call_a']);
    expect(await store.prompts.update(prompt.id, { ...patch, state: 'completed' })).toBe(true);
    const stored = await store.prompts.get(prompt.id);
    expect(stored).toMatchObject({ state: 'completed', usage });
    expect(stored?.output).toEqual([decided, text('out_1'), toolOutput('call_b')]);
    expect((await store.prompts.findByToolCall('call_b'))?.id).toBe(prompt.id);
    // Appended after what it removes, in the order given, and again after that.
    await store.prompts.update(prompt.id, { removeOutputs: ['out_1'], append: [text('out_2')] });
    await store.prompts.appendOutput(prompt.id, text('out_3'));
    expect((await store.prompts.get(prompt.id))?.output.map((o) => o.id)).toEqual([
      'call_a',
      'call_b',
      'out_2',
      'out_3',
    ]);
    await expect(store.prompts.update('prm_missing', { append: [text('out_x')] })).rejects.toThrow();
  });

  it('keeps what was written, whatever the caller does to its objects afterwards', async () => {
    const { store, conversation } = fixture();
    const prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    const output = { type: 'text', id: 'out_m', createdAt: sampleTime(2), text: 'original' };
    await store.prompts.appendOutput(prompt.id, output);
    output.text = 'changed';
    const read = await store.prompts.get(prompt.id);
    expect(read?.output[0]?.text).toBe('original');
  });
}

/** Prompts of a user, each in a conversation of its own, created one after the other. */
async function promptsOf(
  store: Store,
  userId: string,
  states: readonly PromptRecord['state'][],
): Promise<PromptRecord[]> {
  const created: PromptRecord[] = [];
  for (const state of states) {
    const conversation = sampleConversation(userId);
    await store.conversations.create(conversation);
    const prompt = samplePrompt(conversation, { state });
    await store.prompts.create(prompt);
    created.push(prompt);
  }
  return created;
}

/** `listByUserAndState` (optional): one user's prompts in a state, oldest first, in pages. */
function userStateLists(getStore: () => Store): void {
  describe('prompts by user and state', () => {
    const WAITING = 'waiting_for_approval';
    const ids = (page: { items: PromptRecord[] }) => page.items.map((p) => p.id);

    it("pages one user's prompts in a state, oldest first, and no one else's", async ({ skip }) => {
      const store = getStore();
      const list = store.prompts.listByUserAndState?.bind(store.prompts);
      if (!list) skip('this store does not list prompts by user and state');
      // Interleaved: the other user's waiting prompts, and this user's in other states.
      const mine: PromptRecord[] = [];
      for (let i = 0; i < 5; i++) {
        mine.push(...(await promptsOf(store, 'user_a', [WAITING])));
        await promptsOf(store, 'user_b', [WAITING]);
        await promptsOf(store, 'user_a', ['running', 'completed']);
      }
      await store.prompts.appendOutput(mine[1]!.id, toolOutput('call_listed'));
      const first = await list!('user_a', WAITING, { limit: 2 });
      expect(ids(first)).toEqual([mine[0]!.id, mine[1]!.id]);
      // Whole prompts, with their outputs.
      expect(first.items[1]).toEqual(await store.prompts.get(mine[1]!.id));
      expect(first.items[1]?.output).toEqual([toolOutput('call_listed')]);
      const second = await list!('user_a', WAITING, { limit: 2, cursor: first.nextCursor });
      expect(ids(second)).toEqual([mine[2]!.id, mine[3]!.id]);
      const third = await list!('user_a', WAITING, { limit: 2, cursor: second.nextCursor });
      expect([ids(third), third.nextCursor]).toEqual([[mine[4]!.id], undefined]);
      const all = await list!('user_a', WAITING);
      expect([ids(all), all.nextCursor]).toEqual([mine.map((p) => p.id), undefined]);
      expect(ids(await list!('user_a', 'running', { limit: 200 }))).toHaveLength(5);
      expect(ids(await list!('user_c', WAITING))).toEqual([]);
      const theirs = await list!('user_b', WAITING, { limit: 5 });
      expect([theirs.items.every((p) => p.userId === 'user_b'), theirs.items.length]).toEqual([true, 5]);
    });

    it('continues a page exactly where the last one ended, whatever changed state in between', async ({
      skip,
    }) => {
      const store = getStore();
      const list = store.prompts.listByUserAndState?.bind(store.prompts);
      if (!list) skip('this store does not list prompts by user and state');
      const mine = await promptsOf(store, 'user_a', [WAITING, WAITING, WAITING, WAITING, WAITING]);
      const first = await list!('user_a', WAITING, { limit: 2 });
      expect(ids(first)).toEqual([mine[0]!.id, mine[1]!.id]);
      // One listed leaves, then one not yet listed leaves, and a new one arrives: none skipped, none twice.
      await store.prompts.update(mine[1]!.id, { state: 'running' });
      await store.prompts.update(mine[2]!.id, { state: 'completed' });
      const [late] = await promptsOf(store, 'user_a', [WAITING]);
      const second = await list!('user_a', WAITING, { limit: 2, cursor: first.nextCursor });
      expect(ids(second)).toEqual([mine[3]!.id, mine[4]!.id]);
      const third = await list!('user_a', WAITING, { limit: 2, cursor: second.nextCursor });
      expect([ids(third), third.nextCursor]).toEqual([[late!.id], undefined]);
      // Back in the state, a prompt is listed in its place (oldest first); deleted, it is gone.
      await store.prompts.update(mine[1]!.id, { state: WAITING });
      await store.conversations.delete(mine[0]!.conversationId);
      expect(ids(await list!('user_a', WAITING))).toEqual([mine[1]!.id, mine[3]!.id, mine[4]!.id, late!.id]);
    });

    it('refuses a cursor it did not make with invalid_input, reading nothing as another page', async ({
      skip,
    }) => {
      const store = getStore();
      const list = store.prompts.listByUserAndState?.bind(store.prompts);
      if (!list) skip('this store does not list prompts by user and state');
      await promptsOf(store, 'user_a', [WAITING, WAITING, WAITING]);
      // Of the form a store may use (base64url JSON), holding no position it could make.
      const forged = Buffer.from(JSON.stringify(['not a position'])).toString('base64url');
      for (const cursor of [
        'junk',
        '-1',
        '1.5',
        "1' OR 1=1 --",
        '%00',
        'x'.repeat(300),
        forged,
        `${forged}x`,
      ]) {
        await expect(list!('user_a', WAITING, { limit: 1, cursor }), cursor).rejects.toMatchObject({
          code: 'invalid_input',
        });
      }
    });
  });
}

function recordConformance(getStore: () => Store): void {
  describe('records', () => {
    it('puts, versions, reads and deletes records per namespace', async () => {
      const store = getStore();
      const first = await store.records.put('blueprints', 'b1', { title: 'A' });
      expect(first.version).toBe(1);
      const second = await store.records.put('blueprints', 'b1', { title: 'B' });
      expect(second.version).toBe(2);
      expect((await store.records.get('blueprints', 'b1'))?.value).toEqual({ title: 'B' });
      expect(await store.records.get('triggers', 'b1')).toBeUndefined();
      expect(await store.records.delete('blueprints', 'b1')).toBe(true);
      expect(await store.records.get('blueprints', 'b1')).toBeUndefined();
      expect(await store.records.delete('blueprints', 'b1')).toBe(false);
    });

    it('writes with an expected version only if it matches (0: only if absent)', async () => {
      const store = getStore();
      await store.records.put('triggers', 't1', { n: 1 }, { expectedVersion: 0 });
      await expect(
        store.records.put('triggers', 't1', { n: 2 }, { expectedVersion: 0 }),
      ).rejects.toBeInstanceOf(VersionConflictError);
      const results = await Promise.allSettled([
        store.records.put('triggers', 't1', { n: 3 }, { expectedVersion: 1 }),
        store.records.put('triggers', 't1', { n: 4 }, { expectedVersion: 1 }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await store.records.get('triggers', 't1'))?.version).toBe(2);
    });

    it('lists records in id order, by prefix, in pages', async () => {
      const store = getStore();
      for (const id of ['u1:c', 'u1:a', 'u2:a', 'u1:b']) await store.records.put('files', id, { id });
      const first = await store.records.list('files', { prefix: 'u1:', limit: 2 });
      expect(first.items.map((r) => r.id)).toEqual(['u1:a', 'u1:b']);
      const second = await store.records.list('files', {
        prefix: 'u1:',
        limit: 2,
        cursor: first.nextCursor,
      });
      expect(second.items.map((r) => r.id)).toEqual(['u1:c']);
      expect(second.nextCursor).toBeUndefined();
    });
  });
}

// `Store.messages` is optional: a store without it skips these (and its platform refuses steering).
function messageConformance(getStore: () => Store): void {
  describe('messages', () => {
    it("lists a conversation's messages in the order they were added, and only its own", async ({ skip }) => {
      const store = getStore();
      const messages = store.messages ?? skip();
      const a = sampleConversation();
      const b = sampleConversation();
      await store.conversations.create(a);
      await store.conversations.create(b);
      const sent = [
        queuedMessage(a, 'queue', 'one'),
        queuedMessage(b, 'steer', 'other'),
        queuedMessage(a, 'steer', 'two'),
      ];
      for (const m of sent) await messages.add(m);
      expect(await messages.list(a.id)).toEqual([sent[0], sent[2]]);
      expect(await messages.list(b.id)).toEqual([sent[1]]);
      expect((await messages.conversationsWithMessages()).sort()).toEqual([a.id, b.id].sort());
      await expect(messages.add(sent[0]!)).rejects.toSatisfy((e) => ConflictError.is(e));
    });

    it('removes messages by id, returning those that were there, and keeps the rest in order', async ({
      skip,
    }) => {
      const store = getStore();
      const messages = store.messages ?? skip();
      const a = sampleConversation();
      await store.conversations.create(a);
      const sent = ['1', '2', '3'].map((input) => queuedMessage(a, 'queue', input));
      for (const m of sent) await messages.add(m);
      expect(await messages.remove(a.id, [sent[1]!.id, 'msg_unknown'])).toEqual([sent[1]!.id]);
      expect(await messages.remove(a.id, [sent[1]!.id])).toEqual([]);
      expect((await messages.list(a.id)).map((m) => m.input)).toEqual(['1', '3']);
      await messages.remove(a.id, [sent[0]!.id, sent[2]!.id]);
      expect(await messages.list(a.id)).toEqual([]);
      expect(await messages.conversationsWithMessages()).toEqual([]);
    });

    it("keeps a message's model class and metadata, and leaves them out when it has none", async ({
      skip,
    }) => {
      const store = getStore();
      const messages = store.messages ?? skip();
      const a = sampleConversation();
      await store.conversations.create(a);
      const withBoth: QueuedMessage = {
        ...queuedMessage(a, 'queue', 'later'),
        model: 'high',
        metadata: { timeZone: 'Europe/Paris', nested: { n: 1 } },
      };
      const plain = queuedMessage(a, 'steer', 'now');
      await messages.add(withBoth);
      await messages.add(plain);
      const [first, second] = await messages.list(a.id);
      expect(first).toEqual(withBoth);
      expect(second).toEqual(plain);
      expect(second).not.toHaveProperty('model');
      expect(second).not.toHaveProperty('metadata');
    });

    it("deletes a conversation's messages with it", async ({ skip }) => {
      const store = getStore();
      const messages = store.messages ?? skip();
      const a = sampleConversation();
      await store.conversations.create(a);
      await messages.add(queuedMessage(a, 'queue', 'x'));
      await store.conversations.delete(a.id);
      expect(await messages.list(a.id)).toEqual([]);
    });
  });
}
