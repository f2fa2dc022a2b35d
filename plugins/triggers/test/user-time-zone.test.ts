import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { answers, setup, toolOutputs } from './helpers.ts';

const PARIS = { timeZone: 'Europe/Paris' };
const everyDayAt9 = {
  name: 'Morning plan',
  instruction: 'Help the user plan the day.',
  schedule: { kind: 'cron', expression: '0 9 * * *' },
};

describe("the user's time zone (prompt metadata.timeZone)", () => {
  it('is the default zone of a schedule created in that prompt: "every day at 9" fires at 09:00 Paris', async () => {
    // Sunday 22 Nov 2026, 09:30 UTC = 10:30 in Paris (UTC+1): today's 09:00 Paris has passed.
    const t = await setup({
      script: [callTool('trigger.create', everyDayAt9), reply('Done.'), ...answers(2)],
    });
    const asked = await t.send('Every day at 9, help me plan the day', { metadata: PARIS });
    const [call] = toolOutputs(asked);
    expect(call?.result).toMatchObject({
      type: 'pending',
      reason: expect.stringContaining('every day at 09:00 Europe/Paris, next on Mon 23 Nov 09:00'),
    });
    await t.approve(call!.id);

    const [trigger] = await t.service.list(t.userId);
    expect(trigger?.schedule).toEqual({ kind: 'cron', expression: '0 9 * * *', timeZone: 'Europe/Paris' });
    expect(trigger?.nextFireAt).toBe('2026-11-23T08:00:00.000Z'); // 09:00 in Paris

    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-23T07:59:59Z');
    expect((await t.prompts()).filter((p) => p.metadata?.trigger)).toHaveLength(0);
    await t.clock.advanceTo('2026-11-24T08:00:00Z');
    const fired = (await t.prompts()).filter((p) => p.metadata?.trigger === trigger?.id);
    expect(fired.map((p) => p.metadata?.triggerName)).toEqual(['Morning plan', 'Morning plan']);
    const { runs } = await t.service.get(t.userId, trigger!.id);
    expect(runs.map((run) => run.scheduledFor)).toEqual([
      '2026-11-23T08:00:00.000Z',
      '2026-11-24T08:00:00.000Z',
    ]);
    await t.scheduler.stop();
  });

  it("tells the model the user's local time and zone, and the tools' schema names it as the default", async () => {
    const t = await setup({ script: [reply('Hello.')] });
    await t.send('Hi', { metadata: PARIS });
    const request = t.model.requests[0]!;
    expect(request.instructions).toContain(
      "It is now Sun 22 Nov 10:30 in Europe/Paris, the user's time zone (schedules use it unless they name another).",
    );
    expect(JSON.stringify(request.tools.find((tool) => tool.name === 'trigger.create'))).toContain(
      'Default: Europe/Paris.',
    );
  });

  it('keeps a zone the model names, and the default zone when the prompt carries none or an unknown one', async () => {
    const inTokyo = { ...everyDayAt9, schedule: { ...everyDayAt9.schedule, timeZone: 'Asia/Tokyo' } };
    const t = await setup({
      defaultTimeZone: 'UTC',
      script: [
        callTool('trigger.create', inTokyo),
        reply('Done.'),
        callTool('trigger.create', everyDayAt9),
        reply('Done.'),
      ],
    });
    await t.approve(toolOutputs(await t.send('Tokyo mornings', { metadata: PARIS }))[0]!.id);
    await t.approve(toolOutputs(await t.send('Mornings', { metadata: { timeZone: 'Mars/Olympus' } }))[0]!.id);
    const zones = (await t.service.list(t.userId)).map((trigger) => trigger.schedule.timeZone);
    expect(zones.sort()).toEqual(['Asia/Tokyo', 'UTC']);
    expect(t.model.requests[2]!.instructions).toContain('in UTC, the default time zone.');
  });
});
