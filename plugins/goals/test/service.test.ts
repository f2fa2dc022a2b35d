import { ConflictError, NotFoundError, StoreToken, TesseraError } from '@tessera/core';
import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { GOALS_NAMESPACE, goalService } from '../src/index.ts';
import { settled, setup } from './helpers.ts';

const tests = { kind: 'check' as const, toolId: 'check.tests' };
const input = {
  objective: 'Ship the release',
  criteria: [{ description: 'Tests pass', verify: tests }, { description: 'The release notes read well' }],
  start: false,
};

describe('goalService', () => {
  it('creates, reads, revises, pauses, resumes, stops; ended goals fail closed', async () => {
    const t = await setup({ script: [reply('On it.')] });
    const { goals } = t;
    const goal = await goals.create(t.conversation.id, t.userId, input);
    expect(goal).toMatchObject({
      id: expect.stringMatching(/^gol_/),
      conversationId: t.conversation.id,
      userId: t.userId,
      state: 'active',
      turn: 0,
      stallLimit: 3,
      stalls: 0,
      budgets: { prompts: 100 },
      used: { modelCalls: 0, totalTokens: 0, cost: 0, prompts: 0, wallMs: 0 },
      criteria: [
        { id: 'c1', description: 'Tests pass', verify: tests },
        { id: 'c2', description: 'The release notes read well', verify: { kind: 'human' } },
      ],
      progress: [],
      version: 1,
    });
    expect(goal).not.toHaveProperty('internal');
    expect(await t.prompts()).toEqual([]); // start: false
    expect(await goals.get(t.conversation.id, t.userId)).toEqual(goal);
    // One live goal per conversation.
    await expect(goals.create(t.conversation.id, t.userId, input)).rejects.toSatisfy((e) =>
      ConflictError.is(e),
    );

    // A person's confirmation is evidence; the check's criterion still needs its check.
    const confirmed = await goals.confirm(t.conversation.id, t.userId, 'c2', 'Read them: fine.');
    expect(confirmed.criteria[1]!.evidence).toMatchObject({
      by: 'human',
      decidedBy: t.userId,
      summary: 'Read them: fine.',
    });
    expect(confirmed.state).toBe('active');
    await expect(goals.confirm(t.conversation.id, t.userId, 'c9')).rejects.toSatisfy((e) =>
      NotFoundError.is(e),
    );

    // Revising keeps the evidence of criteria unchanged, and renumbers.
    const revised = await goals.revise(t.conversation.id, t.userId, {
      criteria: [{ description: 'The docs are updated' }, { description: 'The release notes read well' }],
      budgets: { modelCalls: 50 },
      stallLimit: 5,
    });
    expect(revised.criteria.map((c) => [c.id, c.description, c.evidence?.by])).toEqual([
      ['c1', 'The docs are updated', undefined],
      ['c2', 'The release notes read well', 'human'],
    ]);
    expect(revised).toMatchObject({ budgets: { modelCalls: 50 }, stallLimit: 5 });
    expect(revised.budgets).toEqual({ modelCalls: 50 }); // revised budgets replace the old ones
    expect(revised.progress.at(-1)).toMatchObject({ kind: 'revised' });

    const paused = await goals.pause(t.conversation.id, t.userId, 'Lunch.');
    expect(paused).toMatchObject({ state: 'paused', pause: { kind: 'user', reason: 'Lunch.' } });
    await expect(goals.pause(t.conversation.id, t.userId)).rejects.toSatisfy((e) => ConflictError.is(e));
    const resumed = await goals.resume(t.conversation.id, t.userId);
    expect(resumed).toMatchObject({ state: 'active', turn: 1 });
    expect(resumed).not.toHaveProperty('pause');
    await goals.pause(t.conversation.id, t.userId);
    const stopped = await goals.stop(t.conversation.id, t.userId, 'Not needed.');
    expect(stopped).toMatchObject({ state: 'stopped', endReason: 'Not needed.' });
    expect(stopped).not.toHaveProperty('pause');
    for (const act of [
      () => goals.pause(t.conversation.id, t.userId),
      () => goals.resume(t.conversation.id, t.userId),
      () => goals.stop(t.conversation.id, t.userId),
      () => goals.confirm(t.conversation.id, t.userId, 'c1'),
      () => goals.revise(t.conversation.id, t.userId, { objective: 'Other' }),
    ]) {
      await expect(act()).rejects.toSatisfy((e) => ConflictError.is(e));
    }
    // An ended goal's conversation may get a new one; get gives the latest.
    const next = await goals.create(t.conversation.id, t.userId, { ...input, objective: 'Next' });
    expect((await goals.get(t.conversation.id, t.userId)).id).toBe(next.id);
    await t.platform.close();
  });

  it("confirming the last criterion completes the goal; another user's goal is not found", async () => {
    const t = await setup();
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Agree on the plan',
      criteria: [{ description: 'Ada agrees' }],
      start: false,
    });
    for (const act of [
      () => t.goals.get(t.conversation.id, 'mallory'),
      () => t.goals.pause(t.conversation.id, 'mallory'),
      () => t.goals.confirm(t.conversation.id, 'mallory', 'c1'),
      () => t.goals.stop(t.conversation.id, 'mallory'),
      () =>
        t.goals.create(t.conversation.id, 'mallory', { objective: 'x', criteria: [{ description: 'y' }] }),
      () => t.goals.get('conv_nope', t.userId),
    ]) {
      await expect(act()).rejects.toSatisfy((e) => NotFoundError.is(e));
    }
    expect((await t.goals.list('mallory')).items).toEqual([]);
    const done = await t.goals.confirm(t.conversation.id, t.userId, 'c1');
    expect(done).toMatchObject({ state: 'completed', endReason: 'Every criterion has evidence.' });
    await t.platform.close();
  });

  it('of two creates at once, one wins and the other is a conflict', async () => {
    const t = await setup();
    const results = await Promise.allSettled(
      ['A', 'B', 'C'].map((objective) =>
        t.goals.create(t.conversation.id, t.userId, {
          objective,
          criteria: [{ description: 'y' }],
          start: false,
        }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(ConflictError.is(r.reason)).toBe(true);
    const goal = await t.goals.get(t.conversation.id, t.userId);
    expect(goal.id).toBe((won[0] as PromiseFulfilledResult<{ id: string }>).value.id);
    expect((await t.goals.list(t.userId)).items).toHaveLength(1);
    await t.platform.close();
  });

  it('refuses bad input with invalid_input, naming the problem', async () => {
    const t = await setup();
    const bad: unknown[] = [
      {},
      { objective: '', criteria: [{ description: 'x' }] },
      { objective: 'x'.repeat(4_001), criteria: [{ description: 'x' }] },
      { objective: 'x', criteria: [] },
      { objective: 'x', criteria: Array.from({ length: 21 }, () => ({ description: 'x' })) },
      { objective: 'x', criteria: [{ description: 'x'.repeat(1_001) }] },
      { objective: 'x', criteria: [{ description: 'x', verify: { kind: 'check' } }] },
      { objective: 'x', criteria: [{ description: 'x', verify: { kind: 'check', toolId: 'no.such_tool' } }] },
      {
        objective: 'x',
        criteria: [{ description: 'x', verify: { kind: 'check', toolId: 'goal.complete' } }],
      },
      { objective: 'x', criteria: [{ description: 'x' }], budgets: { modelCalls: 0 } },
      { objective: 'x', criteria: [{ description: 'x' }], budgets: { modelCalls: 1.5 } },
      { objective: 'x', criteria: [{ description: 'x' }], budgets: { cost: -1 } },
      { objective: 'x', criteria: [{ description: 'x' }], budgets: { prompts: 1e9 } },
      { objective: 'x', criteria: [{ description: 'x' }], budgets: { rounds: 3 } },
      { objective: 'x', criteria: [{ description: 'x' }], stallLimit: 0 },
      { objective: 'x', criteria: [{ description: 'x' }], stallLimit: 21 },
      { objective: 'x', criteria: [{ description: 'x' }], extra: true },
    ];
    for (const input of bad) {
      const error = await t.goals.create(t.conversation.id, t.userId, input as never).catch((e) => e);
      expect(TesseraError.is(error) && error.code, JSON.stringify(input).slice(0, 100)).toBe('invalid_input');
    }
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'x',
      criteria: [{ description: 'y' }],
      start: false,
    });
    const note = await t.goals.confirm(t.conversation.id, t.userId, 'c1', 'x'.repeat(2_001)).catch((e) => e);
    expect(note.code).toBe('invalid_input');
    const reason = await t.goals.pause(t.conversation.id, t.userId, 42 as never).catch((e) => e);
    expect(reason.code).toBe('invalid_input');
    const list = await t.goals.list(t.userId, { limit: 500 }).catch((e) => e);
    expect(list.code).toBe('invalid_input');
    await t.platform.close();
  });

  it("lists the user's goals newest first, a page at a time, by state", async () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const t = await setup({ goals: { now: () => new Date(now) } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const conversation = await t.platform.conversations.create({ userId: t.userId });
      const goal = await t.goals.create(conversation.id, t.userId, {
        objective: `Goal ${i}`,
        criteria: [{ description: 'Done' }],
        start: false,
      });
      if (i % 2 === 0) await t.goals.stop(conversation.id, t.userId);
      ids.unshift(goal.id);
      now += 1_000;
    }
    const first = await t.goals.list(t.userId, { limit: 2 });
    expect(first.items.map((g) => g.id)).toEqual(ids.slice(0, 2));
    const second = await t.goals.list(t.userId, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((g) => g.id)).toEqual(ids.slice(2, 4));
    const third = await t.goals.list(t.userId, { limit: 2, cursor: second.nextCursor! });
    expect(third.items.map((g) => g.id)).toEqual(ids.slice(4));
    expect(third.nextCursor).toBeUndefined();
    const stopped = await t.goals.list(t.userId, { state: 'stopped' });
    expect(stopped.items.map((g) => g.id)).toEqual([ids[0], ids[2], ids[4]]);
    await t.platform.close();
  });

  it("a deleted conversation's goals go with it", async () => {
    const t = await setup({ script: [reply('ok')] });
    await t.goals.create(t.conversation.id, t.userId, { ...input, start: false });
    await t.goals.stop(t.conversation.id, t.userId);
    await t.goals.create(t.conversation.id, t.userId, { ...input, start: false });
    await t.platform.conversations.delete(t.conversation.id, t.userId);
    const store = t.platform.services.resolve(StoreToken);
    expect((await store.records.list(GOALS_NAMESPACE)).items).toEqual([]);
    await t.platform.close();
  });

  it('without the plugin in the platform, goalService says so', async () => {
    const { createTestPlatform } = await import('@tessera/testing');
    const t = await createTestPlatform();
    expect(() => goalService(t.platform.services)).toThrow(/goalsPlugin\(\)/);
  });

  it('the goal tools: a plan, a wait without the triggers plugin refused, a blocker that pauses', async () => {
    const t = await setup({
      script: [
        callTool('goal.update_plan', { plan: '1. fix 2. test', progress: 'Read the code.' }),
        callTool('goal.wait', { minutes: 30, reason: 'The CI run.' }),
        callTool('goal.blocked', { reason: 'Need the key.' }),
        reply('Blocked on the key.'),
      ],
    });
    await t.goals.create(t.conversation.id, t.userId, { ...input, start: true });
    const goal = await settled(t.goal, t.prompts, ['paused']);
    expect(goal).toMatchObject({
      plan: '1. fix 2. test',
      pause: { kind: 'blocker', reason: 'Blocked: Need the key.' },
    });
    expect(goal.progress.map((e) => e.kind)).toEqual(['plan', 'progress', 'paused']);
    const [prompt] = await t.prompts();
    expect(t.toolError(prompt!, 'goal.wait').message).toContain('triggers plugin is not installed');
    const checkpoints = prompt!.output.filter((o) => o.type === 'goal-checkpoint');
    expect(checkpoints.map((c) => [c.state, c.progress.map((e) => e.kind)])).toEqual([
      ['active', []],
      ['active', ['plan', 'progress']],
      ['paused', ['paused']],
    ]);
    await t.platform.close();
  });
});

describe('bounds per user', () => {
  it('a user has at most maxLiveGoalsPerUser live goals; an ended one frees its place', async () => {
    const t = await setup({ goals: { maxLiveGoalsPerUser: 2 } });
    const conversations = await Promise.all(
      [1, 2, 3].map(() => t.platform.conversations.create({ userId: t.userId })),
    );
    const make = (id: string) =>
      t.goals.create(id, t.userId, { objective: 'x', criteria: [{ description: 'y' }], start: false });
    await make(conversations[0]!.id);
    await make(conversations[1]!.id);
    const refused = await make(conversations[2]!.id).catch((e) => e);
    expect(ConflictError.is(refused) && refused.message).toContain('at most 2 live');
    await expect(t.goals.get(conversations[2]!.id, t.userId)).rejects.toSatisfy((e) => NotFoundError.is(e));
    // Another user is not counted against them.
    const other = await t.platform.conversations.create({ userId: 'bob' });
    await t.goals.create(other.id, 'bob', { objective: 'x', criteria: [{ description: 'y' }], start: false });
    await t.goals.stop(conversations[0]!.id, t.userId);
    await make(conversations[2]!.id);
    // Creates at once never pass the bound.
    await t.goals.stop(conversations[1]!.id, t.userId);
    await t.goals.stop(conversations[2]!.id, t.userId);
    const more = await Promise.all(
      [1, 2, 3, 4].map(() => t.platform.conversations.create({ userId: t.userId })),
    );
    const results = await Promise.allSettled(more.map((c) => make(c.id)));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(2);
    expect(
      (await t.goals.list(t.userId)).items.filter((g) => g.state === 'active').length,
    ).toBeLessThanOrEqual(2);
    await t.platform.close();
  });
});
