import { sampleConversation, samplePrompt } from '@tessera/testing';
import { afterEach, expect, it } from 'vitest';
import type { PostgresStore } from '../src/index.ts';
import { describeEachDriver } from './support/each-driver.ts';

// A search reads only the user's newest inputs, up to `searchBytes` as stored: however much a user stored, one
// search costs a bounded amount of matching (PGlite has no statement timeout to bound it otherwise).

describeEachDriver('a search', (open) => {
  const stores: PostgresStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('reads the newest prompts up to searchBytes of their inputs; older ones are not found', async () => {
    const filler = (word: string) => `${word} ${'lorem ipsum '.repeat(120)}`; // ~1,450 bytes
    const fill = async (store: PostgresStore) => {
      const conversation = sampleConversation();
      await store.conversations.create(conversation);
      for (const input of [filler('zebra'), filler('yak'), filler('xerus')]) {
        const prompt = samplePrompt(conversation, { input });
        await store.prompts.create(prompt);
        await store.prompts.update(prompt.id, { state: 'completed' });
      }
      return conversation;
    };
    const bounded = await open({ searchBytes: 2_000 });
    stores.push(bounded);
    const mine = await fill(bounded);
    const found = async (store: PostgresStore, word: string) =>
      (await store.conversations.search!(mine.userId, word)).items.map((hit) => hit.field);
    expect(await found(bounded, 'xerus')).toEqual(['input']); // the newest
    expect(await found(bounded, 'yak')).toEqual([]); // past 2,000 bytes
    expect(await found(bounded, 'zebra')).toEqual([]);
    const whole = await open({ schema: bounded.schema });
    stores.push(whole);
    expect(await found(whole, 'zebra')).toEqual(['input']); // 4 MiB by default
  });
});
