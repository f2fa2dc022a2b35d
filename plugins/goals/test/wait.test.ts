import { ManualClock, triggersPlugin } from '@tessera/plugin-triggers';
import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { settled, setup, until } from './helpers.ts';

describe('goal.wait with the triggers plugin', () => {
  it('pauses the goal until the time, then a trigger wakes it and it goes on', async () => {
    const clock = new ManualClock('2026-11-28T09:00:00Z');
    const t = await setup({
      goals: { now: () => new Date(clock.now()) },
      plugins: [triggersPlugin({ clock, scheduler: { rescanEveryMs: 24 * 3_600_000 } })],
      script: [
        callTool('work.do'),
        callTool('goal.wait', { minutes: 30, reason: 'The CI run takes half an hour.' }),
        reply('Waiting for CI.'),
        // woken: the trigger's prompt checks, which passes
        () => {
          t.checks.pass = true;
          return callTool('check.tests');
        },
        reply('CI is green.'),
      ],
    });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Ship it',
      criteria: [{ description: 'Tests pass', verify: { kind: 'check', toolId: 'check.tests' } }],
    });
    const waiting = await settled(t.goal, t.prompts, ['paused']);
    expect(waiting.pause).toMatchObject({ kind: 'waiting', wakeAt: '2026-11-28T09:30:00.000Z' });
    expect(t.model.requests).toHaveLength(3);
    // Nothing runs before the time.
    await clock.advanceTo('2026-11-28T09:29:00Z');
    expect(t.model.requests).toHaveLength(3);
    await clock.advanceTo('2026-11-28T09:30:00Z');
    const goal = await settled(t.goal, t.prompts, ['completed']);
    const prompts = await t.prompts();
    expect(prompts[1]!.metadata).toMatchObject({ trigger: expect.any(String) });
    expect(goal.progress.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['paused', 'resumed', 'evidence', 'completed']),
    );
    await until(async () => (await t.goal()).used.prompts === 2 || undefined);
    await t.platform.close();
  });
});

describe('a waiting goal resumed by hand', () => {
  it('goes on at once and its wake-up trigger is deleted', async () => {
    const clock = new ManualClock('2026-11-28T09:00:00Z');
    const t = await setup({
      goals: { now: () => new Date(clock.now()) },
      plugins: [triggersPlugin({ clock, scheduler: { rescanEveryMs: 24 * 3_600_000 } })],
      script: [
        callTool('goal.wait', { minutes: 60, reason: 'A reply by mail.' }),
        reply('Waiting.'),
        callTool('goal.blocked', { reason: 'Still no reply.' }),
        reply('Blocked.'),
      ],
    });
    await t.goals.create(t.conversation.id, t.userId, {
      objective: 'Get an answer',
      criteria: [{ description: 'Answered' }],
    });
    await settled(t.goal, t.prompts, ['paused']);
    const { triggerService } = await import('@tessera/plugin-triggers');
    const triggers = triggerService(t.platform.services);
    expect(await triggers.list(t.userId)).toHaveLength(1);
    await t.goals.resume(t.conversation.id, t.userId);
    expect(await triggers.list(t.userId)).toHaveLength(0);
    const goal = await settled(t.goal, t.prompts, ['paused']);
    expect(goal.pause?.kind).toBe('blocker');
    await clock.advanceTo('2026-11-28T10:30:00Z');
    expect(await t.prompts()).toHaveLength(2);
    await t.platform.close();
  });
});
