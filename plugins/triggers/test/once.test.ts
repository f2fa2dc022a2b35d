import { describe, expect, it } from 'vitest';
import { answers, setup } from './helpers.ts';

describe('a once trigger', () => {
  it('fires exactly once, as a prompt with no input in its conversation', async () => {
    const t = await setup({ script: answers(1, 'Reminder: call Ana.') });
    const trigger = await t.service.create(
      {
        name: 'Call Ana',
        instruction: 'Remind the user to call Ana.',
        schedule: { kind: 'once', at: '2026-11-22T15:00', timeZone: 'Europe/Paris' },
      },
      t.owner,
    );
    expect(trigger.nextFireAt).toBe('2026-11-22T14:00:00.000Z');
    await t.scheduler.start();
    // It sleeps until the fire is due: one timer, at that instant.
    expect(t.clock.pendingTimers()).toEqual([Date.parse('2026-11-22T14:00:00Z')]);

    await t.clock.advanceTo('2026-11-22T13:59:59Z');
    expect(await t.prompts()).toHaveLength(0);

    await t.clock.advanceTo('2026-11-30T00:00:00Z');
    const prompts = await t.prompts();
    expect(prompts).toHaveLength(1);
    const [prompt] = prompts;
    expect(prompt).toMatchObject({ conversationId: t.conversation.id, state: 'completed' });
    expect(prompt?.input).toBeUndefined();
    expect(prompt?.metadata?.trigger).toBe(trigger.id);

    const after = await t.service.get(t.userId, trigger.id);
    expect(after).toMatchObject({ status: 'ended', runCount: 1, lastOutcome: 'completed' });
    expect(after.nextFireAt).toBeUndefined();
    expect(after.runs).toEqual([
      expect.objectContaining({
        scheduledFor: '2026-11-22T14:00:00.000Z',
        startedAt: '2026-11-22T14:00:00.000Z',
        promptId: prompt?.id,
        outcome: 'completed',
      }),
    ]);
    await t.scheduler.stop();
  });

  it('puts the instruction in context and does not offer trigger.create in the prompt it starts', async () => {
    const t = await setup({
      script: [
        { toolCalls: [{ name: 'trigger.create', args: {} }] },
        { text: 'I cannot schedule from here; here is your reminder.' },
      ],
    });
    await t.service.create(
      {
        name: 'Stretch',
        instruction: 'Tell the user to stretch.',
        schedule: { kind: 'once', at: '2026-11-22T10:00' },
      },
      t.owner,
    );
    await t.scheduler.start();
    await t.clock.advanceTo('2026-11-22T10:00:00Z');

    const request = t.model.requests[0]!;
    expect(request.instructions).toContain('Instruction: Tell the user to stretch.');
    expect(request.tools.map((tool) => tool.name).sort()).toEqual(['trigger.delete', 'trigger.list']);
    const [prompt] = await t.prompts();
    expect(prompt?.output.find((o) => o.type === 'tool')).toMatchObject({
      toolId: 'trigger.create',
      result: { type: 'error', error: { code: 'unknown_tool' } },
    });
    expect(await t.service.list(t.userId)).toHaveLength(1);
    await t.scheduler.stop();
  });
});
