import { describe, expect, it } from 'vitest';
import { answers, setup } from './helpers.ts';

const startedAt = async (t: Awaited<ReturnType<typeof setup>>, id: string) =>
  (await t.service.get(t.userId, id)).runs.map((run) => run.startedAt);

describe('a cron trigger in America/New_York', () => {
  it('fires at 09:00 local time across the spring-forward change', async () => {
    // Clocks move forward on Sun 8 Mar 2026: 09:00 is 14:00 UTC before, 13:00 UTC after.
    const t = await setup({ now: '2026-03-05T20:00:00Z', script: answers(4) });
    const trigger = await t.service.create(
      {
        name: 'Standup',
        instruction: 'Post the standup reminder.',
        schedule: { kind: 'cron', expression: '0 9 * * *', timeZone: 'America/New_York' },
      },
      t.owner,
    );
    await t.scheduler.start();
    await t.clock.advanceTo('2026-03-09T23:00:00Z');

    expect(await startedAt(t, trigger.id)).toEqual([
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
    expect(await t.prompts()).toHaveLength(4);
    await t.scheduler.stop();
  });

  it('fires once, not twice, at a time the fall-back change repeats', async () => {
    // Clocks move back on Sun 1 Nov 2026: 01:30 happens twice that night.
    const t = await setup({ now: '2026-10-30T12:00:00Z', script: answers(3) });
    const trigger = await t.service.create(
      {
        name: 'Backup check',
        instruction: 'Check the nightly backup.',
        schedule: { kind: 'cron', expression: '30 1 * * *', timeZone: 'America/New_York' },
      },
      t.owner,
    );
    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-02T12:00:00Z');

    expect(await startedAt(t, trigger.id)).toEqual([
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
    await t.scheduler.stop();
  });
});
