import {
  ConflictError,
  type Conversation,
  NotFoundError,
  newId,
  type PromptRecord,
  TesseraError,
} from '@tessera/core';
import { sampleConversation, samplePrompt } from '@tessera/testing';
import { beforeEach, expect, it } from 'vitest';
import type { PostgresStore } from '../src/index.ts';
import { queries } from '../src/prompts.ts';
import { describeEachDriver } from './support/each-driver.ts';

const text = (id: string, value = id) => ({
  type: 'text',
  id,
  createdAt: new Date().toISOString(),
  text: value,
});

describeEachDriver('storage layout', (open) => {
  let store: PostgresStore;
  let conversation: Conversation;
  let prompt: PromptRecord;
  const table = (name: string) => `"${store.schema}".${name}`;
  const outputRows = () =>
    store.driver.query<{ position: number; output_id: string; xmin: string }>(
      `SELECT position, output_id, xmin::text AS xmin FROM ${table('prompt_outputs')} WHERE prompt_id = $1 ORDER BY position`,
      [prompt.id],
    );

  beforeEach(async () => {
    store = await open();
    conversation = sampleConversation();
    await store.conversations.create(conversation);
    prompt = samplePrompt(conversation);
    await store.prompts.create(prompt);
    return () => store.close();
  });

  it('appends one row per output and replaces one row in place, leaving the other rows untouched', async () => {
    for (const id of ['o1', 'o2', 'o3']) await store.prompts.appendOutput(prompt.id, text(id));
    const before = await outputRows();
    expect(before.map((r) => [r.position, r.output_id])).toEqual([
      [0, 'o1'],
      [1, 'o2'],
      [2, 'o3'],
    ]);
    await store.prompts.appendOutput(prompt.id, text('o4'));
    await store.prompts.update(prompt.id, { outputs: [text('o2', 'replaced')] });
    const after = await outputRows();
    // xmin is the transaction that wrote the row version: unchanged means the row was not rewritten.
    expect(after[0]?.xmin).toBe(before[0]?.xmin);
    expect(after[2]?.xmin).toBe(before[2]?.xmin);
    expect(after[1]?.xmin).not.toBe(before[1]?.xmin);
    expect(after.map((r) => r.output_id)).toEqual(['o1', 'o2', 'o3', 'o4']);
    expect((await store.prompts.get(prompt.id))?.output.map((o) => o.text)).toEqual([
      'o1',
      'replaced',
      'o3',
      'o4',
    ]);
  });

  it('keeps plugin state in one row per plugin and writes only that row', async () => {
    await store.conversations.setPluginState(conversation.id, 'skills', { active: ['a'] });
    await store.conversations.setPluginState(conversation.id, 'files', { count: 1 });
    const rows = () =>
      store.driver.query<{ plugin_id: string; xmin: string }>(
        `SELECT plugin_id, xmin::text AS xmin FROM ${table('plugin_states')} WHERE conversation_id = $1 ORDER BY plugin_id`,
        [conversation.id],
      );
    const before = await rows();
    await store.conversations.setPluginState(conversation.id, 'skills', { active: [] });
    const after = await rows();
    expect(after.map((r) => r.plugin_id)).toEqual(['files', 'skills']);
    expect(after[0]?.xmin).toBe(before[0]?.xmin);
    expect(after[1]?.xmin).not.toBe(before[1]?.xmin);
    expect((await store.conversations.get(conversation.id))?.pluginState).toEqual({
      skills: { active: [] },
      files: { count: 1 },
    });
  });

  it('gives concurrent appends to one prompt distinct, gap-free positions', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `c${i}`);
    await Promise.all(ids.map((id) => store.prompts.appendOutput(prompt.id, text(id))));
    expect((await outputRows()).map((r) => r.position)).toEqual(ids.map((_, i) => i));
    const stored = await store.prompts.get(prompt.id);
    expect(stored?.output.map((o) => o.id).sort()).toEqual([...ids].sort());
  });

  it('removes output rows and closes the gap, rewriting only the rows after the first removed', async () => {
    for (const id of ['o1', 'o2', 'o3', 'o4', 'o5']) await store.prompts.appendOutput(prompt.id, text(id));
    const before = await outputRows();
    await store.prompts.update(prompt.id, { removeOutputs: ['o2', 'o4'] });
    const after = await outputRows();
    expect(after.map((r) => [r.position, r.output_id])).toEqual([
      [0, 'o1'],
      [1, 'o3'],
      [2, 'o5'],
    ]);
    expect(after[0]?.xmin).toBe(before[0]?.xmin);
    const [counted] = await store.driver.query<{ output_count: number }>(
      `SELECT output_count FROM ${table('prompts')} WHERE id = $1`,
      [prompt.id],
    );
    expect(counted?.output_count).toBe(3);
    await Promise.all(['o6', 'o7'].map((id) => store.prompts.appendOutput(prompt.id, text(id))));
    expect((await outputRows()).map((r) => r.position)).toEqual([0, 1, 2, 3, 4]);
  });

  it('stores initial outputs given at creation, findable by id', async () => {
    await store.prompts.update(prompt.id, { state: 'completed' });
    const withOutputs = samplePrompt(conversation, { output: [text('first'), text('second')] });
    await store.prompts.create(withOutputs);
    await store.prompts.appendOutput(withOutputs.id, text('third'));
    expect((await store.prompts.get(withOutputs.id))?.output.map((o) => o.id)).toEqual([
      'first',
      'second',
      'third',
    ]);
    expect((await store.prompts.findByToolCall('second'))?.id).toBe(withOutputs.id);
  });

  it('stores characters PostgreSQL cannot hold (NUL, lone surrogates) as U+FFFD instead of failing', async () => {
    await store.prompts.appendOutput(prompt.id, text('nul', 'a\0b\ud800c'));
    await store.records.put('files', 'f', { name: 'x\0y' });
    await store.conversations.setPluginState(conversation.id, 'p', { s: '\udc00' });
    expect((await store.prompts.get(prompt.id))?.output[0]?.text).toBe('a\uFFFDb\uFFFDc');
    expect((await store.records.get('files', 'f'))?.value).toEqual({ name: 'x\uFFFDy' });
    expect((await store.conversations.get(conversation.id))?.pluginState).toEqual({ p: { s: '\uFFFD' } });
  });

  it('keeps top-level fields it has no column for, so a newer core loses nothing', async () => {
    const extended = { ...sampleConversation(), archived: true } as Conversation;
    await store.conversations.create(extended);
    expect(await store.conversations.get(extended.id)).toEqual(extended);
    const tagged = { ...samplePrompt(extended, { state: 'completed' }), parentPromptId: 'prm_x' };
    await store.prompts.create(tagged);
    expect(await store.prompts.get(tagged.id)).toEqual(tagged);
  });

  it('deletes a conversation with its prompts, outputs and plugin states', async () => {
    await store.prompts.appendOutput(prompt.id, text('gone'));
    await store.conversations.setPluginState(conversation.id, 'skills', {});
    await store.conversations.delete(conversation.id);
    const [counts] = await store.driver.query(
      `SELECT (SELECT count(*) FROM ${table('prompts')})::int AS prompts,
        (SELECT count(*) FROM ${table('prompt_outputs')})::int AS outputs,
        (SELECT count(*) FROM ${table('plugin_states')})::int AS states`,
    );
    expect(counts).toEqual({ prompts: 0, outputs: 0, states: 0 });
  });

  it('answers missing rows, duplicates and foreign cursors with core errors', async () => {
    await expect(store.prompts.appendOutput('prm_missing', text('x'))).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.prompts.update('prm_missing', { state: 'completed' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      store.prompts.create(samplePrompt({ ...conversation, id: 'conv_missing' })),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.conversations.setPluginState('conv_missing', 'p', 1)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(store.conversations.create(conversation)).rejects.toBeInstanceOf(ConflictError);
    await expect(store.records.list('files', { cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(
      TesseraError,
    );
    // A failed replacement changes nothing, not even the state it came with.
    await expect(
      store.prompts.update(prompt.id, { state: 'completed', outputs: [text('nope')] }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await store.prompts.get(prompt.id))?.state).toBe('running');
  });

  it('appends, replaces and changes the state in one patch, or (refused) writes none of it', async () => {
    await store.prompts.appendOutput(prompt.id, text('o1'));
    // Refused by its state check: nothing appended, nothing replaced.
    expect(
      await store.prompts.update(
        prompt.id,
        { state: 'completed', outputs: [text('o1', 'changed')], append: [text('o2')] },
        { expectState: ['waiting_for_approval'] },
      ),
    ).toBe(false);
    expect((await outputRows()).map((r) => r.output_id)).toEqual(['o1']);
    // Refused by an output it cannot replace: nothing appended either.
    await expect(
      store.prompts.update(prompt.id, { outputs: [text('nope')], append: [text('o2')] }),
    ).rejects.toThrow(/no output nope/);
    expect((await outputRows()).map((r) => r.output_id)).toEqual(['o1']);

    expect(
      await store.prompts.update(prompt.id, {
        state: 'completed',
        outputs: [text('o1', 'changed')],
        append: [text('o2'), text('o3')],
      }),
    ).toBe(true);
    expect((await outputRows()).map((r) => [r.position, r.output_id])).toEqual([
      [0, 'o1'],
      [1, 'o2'],
      [2, 'o3'],
    ]);
    const stored = await store.prompts.get(prompt.id);
    expect(stored?.state).toBe('completed');
    expect(stored?.output.map((o) => o.text)).toEqual(['changed', 'o2', 'o3']);
    // The next append takes the position after them.
    await store.prompts.appendOutput(prompt.id, text('o4'));
    expect((await outputRows()).at(-1)).toMatchObject({ position: 3, output_id: 'o4' });
  });

  it('appends with the state in one patch that replaces nothing, or (refused) appends nothing', async () => {
    await store.prompts.appendOutput(prompt.id, text('o1'));
    const patch = { state: 'completed' as const, append: [text('o2'), text('o3')] };
    expect(await store.prompts.update(prompt.id, patch, { expectState: ['waiting_for_approval'] })).toBe(
      false,
    );
    expect((await store.prompts.get(prompt.id))?.state).toBe('running');
    expect((await outputRows()).map((r) => r.output_id)).toEqual(['o1']);

    expect(await store.prompts.update(prompt.id, patch, { expectState: ['running'] })).toBe(true);
    expect((await outputRows()).map((r) => [r.position, r.output_id])).toEqual([
      [0, 'o1'],
      [1, 'o2'],
      [2, 'o3'],
    ]);
    expect((await store.prompts.get(prompt.id))?.state).toBe('completed');
    await expect(store.prompts.update('prm_missing', { append: [text('o4')] })).rejects.toThrow(
      NotFoundError,
    );
    // The next append takes the position after them.
    await store.prompts.appendOutput(prompt.id, text('o4'));
    expect((await outputRows()).at(-1)).toMatchObject({ position: 3, output_id: 'o4' });
  });

  it('lists records by a prefix taken literally, even with LIKE wildcards in it', async () => {
    for (const id of ['a_%1', 'a_%2', 'abc', 'a_x']) await store.records.put('ns', id, { id });
    const page = await store.records.list('ns', { prefix: 'a_%' });
    expect(page.items.map((r) => r.id)).toEqual(['a_%1', 'a_%2']);
    expect((await store.records.list('ns', { prefix: newId('none') })).items).toEqual([]);
  });

  it("reads one user's prompts in a state from its index, even with a plan made for any parameters", async () => {
    // The store prepares its statements once per connection, so a generic plan must find the index too.
    const plan = await store.driver.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query(`PREPARE by_user AS ${queries(`"${store.schema}"`).listByUserAndState}`);
      try {
        const rows = await tx.query<{ 'QUERY PLAN': string }>(
          "EXPLAIN EXECUTE by_user('user_a', 'waiting_for_approval', 0, 51)",
        );
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await tx.query('DEALLOCATE by_user');
      }
    });
    expect(plan).toMatch(
      /Index Scan using prompts_by_user_state on prompts p .*\n\s+Index Cond: \(\(user_id = \$1\) AND \(state = \$2\) AND \(seq > \$3\)\)/,
    );
  });
});
