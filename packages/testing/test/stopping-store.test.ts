import { MemoryStore } from '@tessera/core';
import { expect, it } from 'vitest';
import { ProcessStopped, sampleConversation, stoppingStore } from '../src/index.ts';

it('stoppingStore lands the limit-th write, then refuses every write and claim; reads go through', async () => {
  const inner = new MemoryStore();
  const stopping = stoppingStore(inner, 2);
  let stoppedAt: number | undefined;
  const stopped = stopping.untilStopped().then(() => {
    stoppedAt = stopping.writes();
  });
  await stopping.store.records.put('x', 'a', 1);
  expect(stopping.stopped()).toBe(false);
  await stopping.store.conversations.create({ ...sampleConversation(), id: 'cnv_1' });
  await stopped;
  expect(stoppedAt).toBe(2);
  expect(stopping.stopped()).toBe(true);
  await expect(stopping.store.records.put('x', 'b', 2)).rejects.toBeInstanceOf(ProcessStopped);
  await expect(stopping.store.conversations.rename('cnv_1', 'Later')).rejects.toBeInstanceOf(ProcessStopped);
  await expect(stopping.store.messages?.remove('cnv_1', ['m'])).rejects.toBeInstanceOf(ProcessStopped);
  await expect(stopping.store.prompts.claimOrphans()).rejects.toBeInstanceOf(ProcessStopped);
  expect(stopping.writes()).toBe(2);
  // What landed is in the inner store, and reads still answer.
  expect((await stopping.store.records.get('x', 'a'))?.value).toBe(1);
  expect(await inner.records.get('x', 'b')).toBeUndefined();
  expect((await inner.conversations.get('cnv_1'))?.title).not.toBe('Later');
});

it('stoppingStore without a limit counts writes and never stops', async () => {
  const counting = stoppingStore(new MemoryStore());
  await counting.store.records.put('x', 'a', 1);
  await counting.store.records.delete('x', 'a');
  expect(counting.writes()).toBe(2);
  expect(counting.stopped()).toBe(false);
  expect(await counting.store.prompts.claimOrphans()).toEqual([]);
});
