import { MemoryStore, type PluginError, type Store } from '@tessera/core';
import { createTestPlatform } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { ManualClock, type TriggersPluginOptions, triggerService, triggersPlugin } from '../src/index.ts';
import { answers, DAY } from './helpers.ts';

/** A platform with the triggers plugin and a trigger due at 10:00, not opened yet. */
async function platformWithTrigger(options: TriggersPluginOptions & { store?: Store } = {}) {
  const { store, ...pluginOptions } = options;
  const clock = new ManualClock('2026-11-22T09:30:00Z');
  const reported: PluginError[] = [];
  const t = await createTestPlatform({
    plugins: [triggersPlugin({ clock, scheduler: { rescanEveryMs: DAY }, ...pluginOptions })],
    script: answers(3),
    onPluginError: (error) => reported.push(error),
    ...(store && { store }),
  });
  const owner = { userId: t.userId, conversationId: t.conversation.id };
  await triggerService(t.platform.services).create(
    {
      name: 'Stretch',
      instruction: 'Tell the user to stretch.',
      schedule: { kind: 'interval', everyMinutes: 60, startAt: '2026-11-22T10:00:00Z' },
    },
    owner,
  );
  const prompts = () => t.platform.conversations.prompts(t.conversation.id, t.userId);
  return { ...t, clock, reported, prompts };
}

describe('the scheduler follows the platform lifecycle', () => {
  it('fires from platform.open() on, and stops firing at platform.close()', async () => {
    const t = await platformWithTrigger();
    expect(t.clock.pendingTimers()).toEqual([]); // no scheduler before open()

    await t.platform.open();
    expect(t.clock.pendingTimers()).toEqual([Date.parse('2026-11-22T10:00:00Z')]);
    await t.clock.advanceTo('2026-11-22T11:00:00Z');
    expect((await t.prompts()).map((p) => p.state)).toEqual(['completed', 'completed']);

    await t.platform.close();
    expect(t.clock.pendingTimers()).toEqual([]);
    await t.clock.advanceTo('2026-11-22T14:00:00Z');
    expect(await t.prompts()).toHaveLength(2);
    expect(t.reported).toEqual([]);
  });

  it('runs no scheduler with scheduler: false', async () => {
    const t = await platformWithTrigger({ scheduler: false });
    await t.platform.open();
    expect(t.clock.pendingTimers()).toEqual([]);
    await t.clock.advanceTo('2026-11-22T12:00:00Z');
    expect(await t.prompts()).toHaveLength(0);
    await t.platform.close();
  });

  it("reports the scheduler's failures to the platform's onPluginError, naming the plugin", async () => {
    const store = new MemoryStore();
    const list = store.records.list.bind(store.records);
    let failing = false;
    store.records.list = (namespace, options) =>
      failing ? Promise.reject(new Error('the disk is unreadable')) : list(namespace, options);
    const t = await platformWithTrigger({ store });
    failing = true;
    await t.platform.open();
    expect(t.reported.map((e) => [e.pluginId, e.phase, e.message])).toEqual([
      ['triggers', 'background', "Plugin 'triggers' failed in its background work: the disk is unreadable"],
    ]);
    await t.platform.close();
  });
});
