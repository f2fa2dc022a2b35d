import { createMemoryStore, type Store } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { answers, DAY, setup } from './helpers.ts';

/** The store, counting the trigger records read. */
function counting(store: Store) {
  const reads = { listed: 0, got: 0 };
  const records: Store['records'] = {
    get: (...args) => {
      if (args[0] === 'triggers') reads.got++;
      return store.records.get(...args);
    },
    list: async <T>(...args: Parameters<Store['records']['list']>) => {
      const page = await store.records.list<T>(...args);
      if (args[0] === 'triggers') reads.listed += page.items.length;
      return page;
    },
    put: (...args) => store.records.put(...args),
    delete: (...args) => store.records.delete(...args),
  };
  return { store: { ...store, conversations: store.conversations, prompts: store.prompts, records }, reads };
}

describe('the scheduler’s reads', () => {
  it('grow with the fires, not with the number of triggers times the fires', async () => {
    const { store, reads } = counting(createMemoryStore());
    const t = await setup({
      now: '2026-11-22T09:00:00Z',
      store,
      script: answers(40),
      maxTriggersPerUser: 40,
    });
    for (let minute = 1; minute <= 40; minute++) {
      await t.service.create(
        {
          name: `Reminder ${minute}`,
          instruction: 'Remind the user.',
          schedule: { kind: 'once', at: `2026-11-22T09:${String(minute).padStart(2, '0')}:00Z` },
        },
        t.owner,
      );
    }
    const beforeStart = { ...reads };
    await t.scheduler.start();
    const afterStart = { ...reads };
    expect(afterStart.listed - beforeStart.listed).toBe(40); // one full pass at start

    await t.clock.advanceTo('2026-11-22T09:45:00Z');
    expect(await t.prompts()).toHaveLength(40);
    // 40 fires, one after the other: each pass read the one trigger due (and wrote it), not all 40.
    expect(reads.listed - afterStart.listed).toBe(0);
    expect(reads.got - afterStart.got).toBeLessThan(40 * 6);
    await t.scheduler.stop();
  });

  it('still reads every trigger every rescan, to see changes made by other processes', async () => {
    const { store, reads } = counting(createMemoryStore());
    const t = await setup({ now: '2026-11-22T09:00:00Z', store, scheduler: { rescanEveryMs: DAY / 24 } });
    await t.service.create(
      { name: 'Daily', instruction: 'Hi.', schedule: { kind: 'cron', expression: '0 8 * * *' } },
      t.owner,
    );
    const created = reads.listed; // creating counts the user's triggers
    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T12:30:00Z');
    expect(reads.listed - created).toBe(1 + 3); // at start, then at 10:00, 11:00 and 12:00
    await t.scheduler.stop();
  });
});
