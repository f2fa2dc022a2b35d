import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { createTriggerScheduler, type MissedFirePolicy } from '../src/index.ts';
import { answers, DAY, deploy, setup, toolOutputs } from './helpers.ts';

async function dailyAfterDowntime(missedFires: MissedFirePolicy) {
  const t = await setup({ now: '2026-11-22T08:00:00Z', script: answers(5) });
  const trigger = await t.service.create(
    {
      name: 'Morning brief',
      instruction: 'Summarise the overnight alerts.',
      schedule: { kind: 'cron', expression: '0 9 * * *', timeZone: 'UTC' },
      missedFires,
    },
    t.owner,
  );
  await t.scheduler.start();
  await t.clock.advanceTo('2026-11-22T12:00:00Z');
  expect(await t.prompts()).toHaveLength(1);

  // The process stops for three days and misses three fires (23rd, 24th, 25th at 09:00).
  await t.scheduler.stop();
  await t.clock.advanceTo('2026-11-25T12:00:00Z');
  const restarted = createTriggerScheduler(t.platform, { rescanEveryMs: DAY });
  await restarted.start();
  await restarted.settled();
  const after = await t.service.get(t.userId, trigger.id);
  return { t, after, restarted };
}

describe('fires missed during downtime', () => {
  it("are skipped under 'skip' (the default): no burst, the next fire is the next future one", async () => {
    const { t, after, restarted } = await dailyAfterDowntime('skip');
    expect(await t.prompts()).toHaveLength(1);
    expect(after.nextFireAt).toBe('2026-11-26T09:00:00.000Z');
    expect(after.runs.map((r) => r.outcome)).toEqual(['completed', 'missed']);
    expect(after.runs[1]).toMatchObject({ scheduledFor: '2026-11-23T09:00:00.000Z' });
    await restarted.stop();
  });

  it("fire once on restart under 'once', then follow the schedule", async () => {
    const { t, after, restarted } = await dailyAfterDowntime('once');
    expect(await t.prompts()).toHaveLength(2);
    expect(after.nextFireAt).toBe('2026-11-26T09:00:00.000Z');
    expect(after.runs.at(-1)).toMatchObject({
      scheduledFor: '2026-11-23T09:00:00.000Z',
      startedAt: '2026-11-25T12:00:00.000Z',
      outcome: 'completed',
    });

    await t.clock.advanceTo('2026-11-26T10:00:00Z');
    expect(await t.prompts()).toHaveLength(3);
    await restarted.stop();
  });

  it('a fire found only a little late (within the grace period) still runs', async () => {
    const t = await setup({ now: '2026-11-22T08:00:00Z', script: answers(1) });
    await t.service.create(
      { name: 'Once', instruction: 'Say hi.', schedule: { kind: 'once', at: '2026-11-22T09:00' } },
      t.owner,
    );
    await t.clock.advanceTo('2026-11-22T09:02:00Z');
    await t.scheduler.start();
    await t.scheduler.settled();
    expect(await t.prompts()).toHaveLength(1);
    await t.scheduler.stop();
  });
});

describe('run history', () => {
  it('catches up with a prompt that ended while no scheduler was listening', async () => {
    const t = await setup({
      now: '2026-11-22T08:00:00Z',
      plugins: [deploy],
      script: [callTool('deploy.run'), reply('Deployed.')],
    });
    const trigger = await t.service.create(
      { name: 'Deploy', instruction: 'Deploy.', schedule: { kind: 'once', at: '2026-11-22T09:00' } },
      t.owner,
    );
    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T09:00:00Z');
    const [waiting] = await t.prompts();
    expect(waiting?.state).toBe('waiting_for_approval');
    await t.scheduler.stop();

    await t.approve(toolOutputs(waiting!)[0]!.id);
    expect((await t.service.get(t.userId, trigger.id)).lastOutcome).toBe('started');

    const restarted = createTriggerScheduler(t.platform, { rescanEveryMs: DAY });
    await restarted.start();
    const after = await t.service.get(t.userId, trigger.id);
    expect(after.runs).toEqual([expect.objectContaining({ promptId: waiting?.id, outcome: 'completed' })]);
    await restarted.stop();
  });
});
