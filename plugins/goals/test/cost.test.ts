import { createMemoryStore, type Store } from '@tessera/core';
import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { settled, setup } from './helpers.ts';

/** A store that counts its record reads, writes and scans. */
function counting(inner: Store) {
  const counts = { get: 0, put: 0, list: 0, delete: 0 };
  const records = new Proxy(inner.records, {
    get: (target, key) => {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function' || !(key in counts)) return value;
      return (...args: unknown[]) => {
        counts[key as keyof typeof counts]++;
        return value.apply(target, args);
      };
    },
  });
  const store = new Proxy(inner, {
    get: (target, key) => (key === 'records' ? records : Reflect.get(target, key, target)),
  });
  return { store, counts };
}

describe('what a goal costs per prompt', () => {
  it("reads a few records per model call and tool call, never scans, whatever other users' goals exist", async () => {
    const { store, counts } = counting(createMemoryStore());
    const t = await setup({
      store,
      script: [
        callTool('work.do'),
        () => {
          t.checks.pass = true;
          return callTool('check.tests');
        },
        reply('Done.'),
      ],
    });
    // 300 goals of other users, live.
    for (let i = 0; i < 300; i++) {
      const userId = `user_${i}`;
      const conversation = await t.platform.conversations.create({ userId });
      await t.goals.create(conversation.id, userId, {
        objective: 'x',
        criteria: [{ description: 'y' }],
        start: false,
      });
    }
    const before = { ...counts };
    let atEnd: typeof counts | undefined;
    let atStart: typeof counts | undefined;
    const ended = new Promise<void>((resolve) =>
      t.platform.events.subscribe({ conversationId: t.conversation.id }, (event) => {
        if (event.type === 'prompt.started') atStart = { ...counts };
        if (event.type !== 'prompt.completed') return;
        atEnd = { ...counts };
        resolve();
      }),
    );
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: { kind: 'check', toolId: 'check.tests' } }],
    });
    await ended;
    const goal = await settled(t.goal, t.prompts, ['completed']);
    // From the create to the prompt's end (no polling in between): the create, then one prompt of 3 model
    // calls and 2 tool calls. A few reads per call, none per stored goal, and no scan.
    const used = {
      get: atEnd!.get - before.get,
      put: atEnd!.put - before.put,
      list: atEnd!.list - before.list,
    };
    expect(goal.used).toMatchObject({ modelCalls: 3, prompts: 1 });
    // The create counts the user's own live goals (two reads of one bounded page); the prompt scans nothing.
    expect(atStart!.list - before.list).toBe(2);
    expect(atEnd!.list - atStart!.list).toBe(0);
    expect(used.get).toBeLessThanOrEqual(30);
    expect(used.put).toBeLessThanOrEqual(6);
    await t.platform.close();
  });

  it('a conversation that never had a goal: its prompts read no goal record (the plugin is on by default)', async () => {
    const { store, counts } = counting(createMemoryStore());
    const t = await setup({ store, script: [callTool('work.do'), reply('Done.')] });
    const before = { ...counts };
    const prompt = await t.platform.send({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'Go',
    });
    expect(prompt.state).toBe('completed');
    // Only the driver's look at the ended prompt (one pointer read); nothing per model or tool call.
    expect(counts.get - before.get).toBeLessThanOrEqual(1);
    expect(counts.put - before.put).toBe(0);
    expect(counts.list - before.list).toBe(0);
    // Once the conversation has a goal, its prompts read it (and a goal created now still works).
    await t.goals.create(t.conversation.id, t.userId, { objective: 'x', criteria: [{ description: 'y' }] });
    expect(
      (
        await t.platform.pluginState(t.conversation.id, t.platform.plugins.find((p) => p.id === 'goals')!)
      ).get(),
    ).toEqual({
      goal: true,
    });
    await t.platform.close();
  });
});
