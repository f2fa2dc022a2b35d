import { createMemoryStore, createPlatform, type Store, VersionConflictError } from '@tessera/core';
import { ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { createTriggerScheduler, ManualClock, triggerService, triggersPlugin } from '../src/index.ts';
import { answers, DAY } from './helpers.ts';

/** The store, counting the compare-and-set writes that lost. */
function countingConflicts(store: Store) {
  const counter = { conflicts: 0 };
  const records: Store['records'] = {
    get: (...args) => store.records.get(...args),
    list: (...args) => store.records.list(...args),
    delete: (...args) => store.records.delete(...args),
    put: async (...args) => {
      try {
        return await store.records.put(...args);
      } catch (error) {
        if (VersionConflictError.is(error)) counter.conflicts++;
        throw error;
      }
    },
  };
  return {
    store: { ...store, conversations: store.conversations, prompts: store.prompts, records },
    counter,
  };
}

describe('two schedulers over one store', () => {
  it('fire each occurrence once', async () => {
    const { store, counter } = countingConflicts(createMemoryStore());
    const clock = new ManualClock('2026-11-22T10:00:30Z');
    const plugin = triggersPlugin({ clock });
    const models = [new ScriptedModel(answers(20)), new ScriptedModel(answers(20))];
    const platforms = models.map((model) => createPlatform({ plugins: [plugin], model, store }));
    const [first] = platforms;
    const conversation = await first!.conversations.create({ userId: 'ana' });
    const trigger = await triggerService(first!.services).create(
      {
        name: 'Every five minutes',
        instruction: 'Check the queue length.',
        schedule: { kind: 'cron', expression: '*/5 * * * *' },
      },
      { userId: 'ana', conversationId: conversation.id },
    );
    const schedulers = platforms.map((p) => createTriggerScheduler(p, { rescanEveryMs: DAY }));
    await Promise.all(schedulers.map((s) => s.start()));

    // 10:05, 10:10, ... 11:00: both schedulers wake at each instant, together.
    await clock.advanceTo('2026-11-22T11:00:00Z');

    const prompts = await first!.conversations.prompts(conversation.id, 'ana');
    expect(prompts).toHaveLength(12);
    expect(prompts.every((p) => p.state === 'completed' && p.metadata?.trigger === trigger.id)).toBe(true);
    expect(new Set(prompts.map((p) => p.metadata?.triggerRun)).size).toBe(12);
    expect(models[0]!.requests.length + models[1]!.requests.length).toBe(12);
    const after = await triggerService(first!.services).get('ana', trigger.id);
    expect(after.runCount).toBe(12);
    // No occurrence was claimed twice: none was merged into another, none is left over.
    expect(after.queued).toBeUndefined();
    expect(after.runs.every((r) => r.coalesced === undefined)).toBe(true);
    expect(after.runs.map((r) => r.scheduledFor.slice(11, 16))).toEqual([
      '10:05',
      '10:10',
      '10:15',
      '10:20',
      '10:25',
      '10:30',
      '10:35',
      '10:40',
      '10:45',
      '10:50',
      '10:55',
      '11:00',
    ]);
    // They did race: the losers' compare-and-set writes were refused.
    expect(counter.conflicts).toBeGreaterThan(0);
    await Promise.all(schedulers.map((s) => s.stop()));
  });
});
