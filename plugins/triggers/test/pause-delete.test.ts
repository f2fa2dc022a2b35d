import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { answers, DAY, setup } from './helpers.ts';

const hourly = {
  name: 'Hourly',
  instruction: 'Check the build.',
  schedule: { kind: 'interval', everyMinutes: 60 },
} as const;

describe('pausing and deleting', () => {
  it('pause stops future fires, resume plans the next one from now', async () => {
    const t = await setup({ now: '2026-11-22T10:00:00Z', script: answers(3) });
    const trigger = await t.service.create(hourly, t.owner);
    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T11:30:00Z');
    expect(await t.prompts()).toHaveLength(1);

    await t.service.pause(t.userId, trigger.id);
    await t.scheduler.settled();
    // Nothing is due: the scheduler only keeps its long rescan timer.
    expect(t.clock.pendingTimers()).toEqual([Date.parse('2026-11-22T11:30:00Z') + DAY]);
    await t.clock.advanceTo('2026-11-22T18:30:00Z');
    expect(await t.prompts()).toHaveLength(1);

    const resumed = await t.service.resume(t.userId, trigger.id);
    expect(resumed).toMatchObject({ status: 'active', nextFireAt: '2026-11-22T19:00:00.000Z' });
    // The change woke the scheduler, which now sleeps until that fire.
    await t.scheduler.settled();
    expect(t.clock.pendingTimers()).toEqual([Date.parse('2026-11-22T19:00:00Z')]);
    await t.clock.advanceTo('2026-11-22T20:00:00Z');
    expect(await t.prompts()).toHaveLength(3);
    await t.scheduler.stop();
  });

  it('delete, by the model, stops future fires', async () => {
    const t = await setup({ now: '2026-11-22T10:00:00Z', script: answers(1) });
    const trigger = await t.service.create(hourly, t.owner);
    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T11:00:00Z');
    expect(await t.prompts()).toHaveLength(1);

    t.model.push(callTool('trigger.delete', { id: trigger.id }), reply('Deleted.'));
    const prompt = await t.send('Stop the hourly check');
    expect(prompt.output[0]).toMatchObject({ result: { type: 'success', output: { deleted: trigger.id } } });
    await t.clock.advanceTo('2026-11-23T11:00:00Z');
    expect(await t.prompts()).toHaveLength(2);
    expect(await t.service.list(t.userId)).toEqual([]);
    await t.scheduler.stop();
  });

  it('ends a trigger after its last run (maxRuns)', async () => {
    const t = await setup({ now: '2026-11-22T10:00:00Z', script: answers(2) });
    const trigger = await t.service.create({ ...hourly, maxRuns: 2 }, t.owner);
    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-23T10:00:00Z');
    expect(await t.prompts()).toHaveLength(2);
    expect(await t.service.get(t.userId, trigger.id)).toMatchObject({ status: 'ended', runCount: 2 });
    await t.scheduler.stop();
  });

  it('deletes the triggers of a conversation deleted through the platform, and only those', async () => {
    const t = await setup({ now: '2026-11-22T10:00:00Z', script: answers(1) });
    const doomed = await t.service.create(hourly, t.owner);
    const other = await t.platform.conversations.create({ userId: t.userId });
    const kept = await t.service.create(hourly, { userId: t.userId, conversationId: other.id });
    await t.scheduler.start();
    await t.platform.conversations.delete(t.conversation.id, t.userId);
    expect(await t.service.find(t.userId, doomed.id)).toBeUndefined();
    await t.clock.advanceTo('2026-11-22T11:00:00Z');
    expect(await t.service.get(t.userId, kept.id)).toMatchObject({ status: 'active', runCount: 1 });
    await t.scheduler.stop();
  });

  it('ends a trigger whose conversation disappeared from the store, saying why', async () => {
    const t = await setup({ now: '2026-11-22T10:00:00Z' });
    const trigger = await t.service.create(hourly, t.owner);
    await t.scheduler.start();
    await t.platform.store.conversations.delete(t.conversation.id);
    await t.clock.advanceTo('2026-11-22T12:00:00Z');

    expect(await t.service.get(t.userId, trigger.id)).toMatchObject({
      status: 'ended',
      runs: [{ outcome: 'not_started', message: 'Not started: its conversation no longer exists.' }],
    });
    await t.scheduler.stop();
  });
});

describe('trigger.list', () => {
  it("shows the user's triggers with their schedule in words", async () => {
    const t = await setup({ script: [callTool('trigger.list'), reply('Here they are.')] });
    const trigger = await t.service.create(
      {
        name: 'Sales report',
        instruction: 'Remind the user to review the sales report.',
        schedule: { kind: 'cron', expression: '0 9 * * 1', timeZone: 'Europe/Paris' },
      },
      t.owner,
    );
    const prompt = await t.send('What reminders do I have?');
    expect(prompt.output[0]).toMatchObject({
      result: {
        type: 'success',
        output: [
          {
            id: trigger.id,
            name: 'Sales report',
            when: 'every Monday at 09:00 Europe/Paris, next on Mon 23 Nov 09:00',
            status: 'active',
            nextFireAt: '2026-11-23T08:00:00.000Z',
            inThisConversation: true,
            recentRuns: [],
          },
        ],
      },
    });
  });
  it('shows a trigger that runs one time only as a one-off, until it has run', async () => {
    const t = await setup({ script: [callTool('trigger.list'), reply('Here it is.'), reply('Stretch!')] });
    const trigger = await t.service.create(
      {
        name: 'Stretch',
        instruction: 'Remind the user to stretch.',
        schedule: { kind: 'interval', everyMinutes: 2 },
        maxRuns: 1,
      },
      t.owner,
    );
    const prompt = await t.send('What reminders do I have?');
    expect(prompt.output[0]).toMatchObject({
      result: { output: [{ id: trigger.id, when: 'once, on Sun 22 Nov 09:32 UTC' }] },
    });

    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T10:00:00Z');
    await t.scheduler.settled();
    const ran = await t.service.get(t.userId, trigger.id);
    expect(ran).toMatchObject({ status: 'ended', runCount: 1 });
    expect(t.service.describe(ran)).toBe('every 2 minutes (UTC), one time only, with no fire left');
    await t.scheduler.stop();
  });
});
