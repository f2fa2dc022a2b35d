import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { setup, toolOutputs } from './helpers.ts';

const weeklyReview = {
  name: 'Sales report',
  instruction: 'Remind the user to review the sales report.',
  schedule: { kind: 'cron', expression: '0 9 * * 1', timeZone: 'Europe/Paris' },
};

describe('trigger.create', () => {
  it('asks for approval with a reason that says in plain words when it will fire', async () => {
    // Sunday 22 Nov 2026: the next Monday is the 23rd.
    const t = await setup({ script: [callTool('trigger.create', weeklyReview), reply('Done.')] });
    const prompt = await t.send('Remind me every Monday at 9 to review the sales report');

    expect(prompt.state).toBe('waiting_for_approval');
    const [call] = toolOutputs(prompt);
    expect(call?.result).toEqual({
      type: 'pending',
      reason:
        'Create the trigger “Sales report”: every Monday at 09:00 Europe/Paris, next on Mon 23 Nov 09:00. Each time, the assistant will: “Remind the user to review the sales report.”',
    });
    expect(await t.service.list(t.userId)).toEqual([]);

    const done = await t.approve(call!.id);
    expect(done.state).toBe('completed');
    const [trigger] = await t.service.list(t.userId);
    expect(trigger).toMatchObject({
      name: 'Sales report',
      conversationId: t.conversation.id,
      status: 'active',
      nextFireAt: '2026-11-23T08:00:00.000Z',
    });
  });

  it('describes a trigger that runs one time only as the one-off it is, and says how a repeating one ends', async () => {
    const inTwoMinutes = {
      name: 'Stretch',
      instruction: 'Remind the user to stretch.',
      schedule: { kind: 'interval', everyMinutes: 2 },
      maxRuns: 1,
    };
    const limited = {
      ...weeklyReview,
      schedule: { kind: 'interval', everyMinutes: 30 },
      maxRuns: 3,
      endAt: '2026-11-23T18:00',
    };
    const t = await setup({ script: [callTool('trigger.create', inTwoMinutes)] });
    const first = await t.send('Remind me in 2 minutes to stretch');
    const [oneOff] = toolOutputs(first);
    await t.platform.cancel(first.id, { userId: t.userId });
    t.model.push(callTool('trigger.create', limited));
    const [repeating] = toolOutputs(await t.send('Remind me 3 times every half hour, until tomorrow 18:00'));

    expect(oneOff?.result).toEqual({
      type: 'pending',
      reason:
        'Create the trigger “Stretch”: once, on Sun 22 Nov 09:32 UTC. When it fires, the assistant will: “Remind the user to stretch.”',
    });
    expect(repeating?.result).toEqual({
      type: 'pending',
      reason:
        'Create the trigger “Sales report”: every 30 minutes (UTC), 3 times, until Mon 23 Nov 18:00, next on Sun 22 Nov 10:00. Each time, the assistant will: “Remind the user to review the sales report.”',
    });
  });

  it('leaves no trigger when the user rejects it', async () => {
    const t = await setup({ script: [callTool('trigger.create', weeklyReview), reply('Understood.')] });
    const prompt = await t.send('Remind me every Monday at 9 to review the sales report');
    const done = await t.reject(toolOutputs(prompt)[0]!.id, 'Not now');

    expect(done.state).toBe('completed');
    expect(toolOutputs(done)[0]?.result).toMatchObject({ type: 'error', error: { code: 'rejected' } });
    expect(await t.service.list(t.userId)).toEqual([]);
  });

  it.each([
    [
      'an invalid cron expression',
      { kind: 'cron', expression: '0 25 * * 1' },
      /not a valid cron expression \(Invalid value for hour: 25\)\. Use five fields[\s\S]*schedule\.expression/,
    ],
    [
      'an unknown time zone',
      { kind: 'cron', expression: '0 9 * * 1', timeZone: 'Europe/Pariss' },
      /Unknown time zone 'Europe\/Pariss'[\s\S]*schedule\.timeZone/,
    ],
    [
      'a date in the past',
      { kind: 'once', at: '2026-11-21T09:00', timeZone: 'Europe/Paris' },
      /2026-11-21T09:00 \(Sat 21 Nov 09:00 Europe\/Paris\) is in the past: it is now Sun 22 Nov 10:30 there/,
    ],
    [
      'a local time that does not exist',
      { kind: 'once', at: '2027-03-28T02:30', timeZone: 'Europe/Paris' },
      /does not exist in Europe\/Paris: the clocks move forward/,
    ],
  ])('rejects %s with an error the model reads and corrects', async (_, schedule, message) => {
    const t = await setup({
      script: [
        callTool('trigger.create', { ...weeklyReview, schedule }),
        callTool('trigger.create', weeklyReview),
      ],
    });
    const prompt = await t.send('Remind me every Monday at 9');
    const [invalid, corrected] = toolOutputs(prompt);

    expect(invalid?.result).toMatchObject({
      type: 'error',
      error: { code: 'invalid_arguments', message: expect.stringMatching(message) },
    });
    // The second call, corrected, goes on to approval.
    expect(corrected?.result?.type).toBe('pending');
    expect(prompt.state).toBe('waiting_for_approval');
  });
});

describe('trigger.update', () => {
  it('needs approval to change a schedule, not to pause', async () => {
    const t = await setup();
    const trigger = await t.service.create(
      { ...weeklyReview, schedule: { kind: 'cron', expression: '0 9 * * 1', timeZone: 'Europe/Paris' } },
      t.owner,
    );
    t.model.push(
      callTool('trigger.update', {
        id: trigger.id,
        schedule: { kind: 'cron', expression: '30 8 * * 1-5', timeZone: 'Europe/Paris' },
      }),
    );
    const change = await t.send('Make it every weekday at 8:30');
    expect(toolOutputs(change)[0]?.result).toEqual({
      type: 'pending',
      reason: `Change the trigger ${trigger.id} to run every weekday at 08:30 Europe/Paris, next on Mon 23 Nov 08:30.`,
    });
    await t.platform.cancel(change.id, { userId: t.userId });

    t.model.push(callTool('trigger.update', { id: trigger.id, enabled: false }), reply('Paused.'));
    const pause = await t.send('Pause it');
    expect(pause.state).toBe('completed');
    expect(await t.service.get(t.userId, trigger.id)).toMatchObject({ status: 'paused' });
  });
});
