import { createMemoryStore, createPlatform, type Platform } from '@tessera/core';
import { ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { createTriggerScheduler, ManualClock, triggerService, triggersPlugin } from '../src/index.ts';
import { answers, DAY } from './helpers.ts';

/** A process that stops right after claiming a fire: its platform never gets to start the prompt. */
const diesBeforeStarting = (platform: Platform) => ({
  events: platform.events,
  store: platform.store,
  services: platform.services,
  start: () => new Promise<never>(() => {}),
});

async function claimedThenDied() {
  const store = createMemoryStore();
  const clock = new ManualClock('2026-11-22T09:59:00Z');
  const plugin = triggersPlugin({ clock });
  const dead = createPlatform({ plugins: [plugin], model: new ScriptedModel(), store });
  const conversation = await dead.conversations.create({ userId: 'ana' });
  const trigger = await triggerService(dead.services).create(
    {
      name: 'Stand-up',
      instruction: 'Remind the user of the stand-up.',
      schedule: { kind: 'once', at: '2026-11-22T10:00:00Z' },
    },
    { userId: 'ana', conversationId: conversation.id },
  );
  const dying = createTriggerScheduler(diesBeforeStarting(dead), { rescanEveryMs: DAY });
  await dying.start();
  // The claim is written, the prompt never started: the run waits with the prompt id chosen at the claim.
  void clock.advanceTo('2026-11-22T10:00:00Z');
  const service = triggerService(dead.services);
  let claimed = await service.get('ana', trigger.id);
  for (let i = 0; i < 100 && claimed.runs.length === 0; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    claimed = await service.get('ana', trigger.id);
  }
  const run = claimed.runs[0]!;
  expect(run).toMatchObject({ outcome: 'started', promptId: expect.any(String) });
  expect(await store.prompts.get(run.promptId!)).toBeUndefined();

  // Restarted processes over the same store.
  const restart = () => {
    const model = new ScriptedModel(answers(1, 'Stand-up in 5 minutes.'));
    const platform = createPlatform({ plugins: [plugin], model, store });
    return { model, scheduler: createTriggerScheduler(platform, { rescanEveryMs: DAY }) };
  };
  const prompts = () => dead.conversations.prompts(conversation.id, 'ana');
  return { clock, trigger, run, restart, prompts, service };
}

describe('a scheduler that stopped between claiming a fire and starting its prompt', () => {
  it('leaves the fire to be started after a while, once, with the prompt id chosen at the claim', async () => {
    const { clock, trigger, run, restart, prompts, service } = await claimedThenDied();
    const { model, scheduler } = restart();
    await clock.advanceTo('2026-11-22T10:00:10Z');
    await scheduler.start();
    // Too early to tell a stopped process from a slow one: it waits, and wakes when it can tell.
    expect(await prompts()).toHaveLength(0);
    expect(clock.pendingTimers()).toContain(Date.parse('2026-11-22T10:00:30Z'));

    await clock.advanceTo('2026-11-22T10:01:00Z');
    await scheduler.settled();
    const [prompt, ...others] = await prompts();
    expect(others).toEqual([]);
    expect(prompt).toMatchObject({
      id: run.promptId,
      state: 'completed',
      metadata: { trigger: trigger.id, triggerRun: run.id },
    });
    expect(model.requests).toHaveLength(1);
    expect(await service.get('ana', trigger.id)).toMatchObject({
      status: 'ended',
      runCount: 1,
      runs: [{ id: run.id, promptId: run.promptId, outcome: 'completed' }],
    });
    await scheduler.stop();
  });

  it('is started by one of two schedulers that find it at once', async () => {
    const { clock, run, restart, prompts } = await claimedThenDied();
    const processes = [restart(), restart()];
    await clock.advanceTo('2026-11-22T10:00:10Z');
    await Promise.all(processes.map(({ scheduler }) => scheduler.start()));
    await clock.advanceTo('2026-11-22T10:01:00Z');
    await Promise.all(processes.map(({ scheduler }) => scheduler.settled()));
    expect((await prompts()).map((p) => [p.id, p.state])).toEqual([[run.promptId, 'completed']]);
    expect(processes.reduce((n, { model }) => n + model.requests.length, 0)).toBe(1);
    await Promise.all(processes.map(({ scheduler }) => scheduler.stop()));
  });
});
