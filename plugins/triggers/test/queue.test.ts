import { callTool, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { deploy, setup, toolOutputs } from './helpers.ts';

describe('a fire while the conversation is busy', () => {
  it('is queued behind a prompt waiting for approval, coalesced, and runs after it', async () => {
    const t = await setup({
      plugins: [deploy],
      script: [callTool('deploy.run'), reply('Deployed.'), reply('Reminder 1.'), reply('Reminder 2.')],
    });
    const trigger = await t.service.create(
      {
        name: 'Hourly check',
        instruction: 'Check the error rate.',
        schedule: { kind: 'interval', everyMinutes: 60, startAt: '2026-11-22T10:00' },
      },
      t.owner,
    );
    await t.scheduler.start();
    const waiting = await t.send('Deploy please');
    expect(waiting.state).toBe('waiting_for_approval');

    // Three fires come due (10:00, 11:00, 12:00) while the deploy waits: one queued fire, two merged in.
    await t.clock.advanceTo('2026-11-22T12:30:00Z');
    expect(await t.prompts()).toHaveLength(1);
    expect((await t.service.get(t.userId, trigger.id)).queued).toEqual({
      scheduledFor: '2026-11-22T10:00:00.000Z',
      queuedAt: '2026-11-22T10:00:00.000Z',
      coalesced: 2,
    });

    await t.approve(toolOutputs(waiting)[0]!.id);
    await t.scheduler.settled();
    const [user, fired] = await t.prompts();
    expect(user).toMatchObject({ id: waiting.id, state: 'completed' });
    expect(fired).toMatchObject({ state: 'completed', metadata: { trigger: trigger.id } });
    expect(fired?.input).toBeUndefined();
    // The fired prompt came after the deploy's answer, never interleaved with it.
    expect(user?.output.at(-1)).toMatchObject({ type: 'text', text: 'Deployed.' });
    expect(fired?.output).toEqual([expect.objectContaining({ type: 'text', text: 'Reminder 1.' })]);

    const after = await t.service.get(t.userId, trigger.id);
    expect(after.queued).toBeUndefined();
    expect(after.runs).toEqual([
      expect.objectContaining({
        scheduledFor: '2026-11-22T10:00:00.000Z',
        startedAt: '2026-11-22T12:30:00.000Z',
        coalesced: 2,
        promptId: fired?.id,
        outcome: 'completed',
      }),
    ]);

    // The schedule goes on as before.
    await t.clock.advanceTo('2026-11-22T13:00:00Z');
    expect(await t.prompts()).toHaveLength(3);
    await t.scheduler.stop();
  });
});
