import { callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { definePlugin, type TesseraEvent, type ToolOutput } from '../src/index.ts';
import { toolbox } from './helpers.ts';

const calls = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');

function eventsOf(t: Awaited<ReturnType<typeof createTestPlatform>>) {
  const events: TesseraEvent[] = [];
  t.platform.events.subscribe({}, (event) => {
    events.push(event);
  });
  return events;
}

describe('guardrails', () => {
  it('an input guardrail trips before anything runs: no model call, failed with guardrail and the reason', async () => {
    const guard = definePlugin({
      id: 'pii',
      guardrails: {
        input: ({ input }) => (input?.includes('SSN') ? { trip: 'No social security numbers.' } : undefined),
      },
    });
    const t = await createTestPlatform({ plugins: [guard], script: [reply('ok')] });
    const events = eventsOf(t);
    const prompt = await t.send('my SSN is 123');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason).toEqual({ code: 'guardrail', message: 'No social security numbers.' });
    expect(t.model.requests).toHaveLength(0);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'prompt.guardrail-tripped', plugin: 'pii', guardrail: 'input' }),
    );
    expect((await t.send('hello')).state).toBe('completed');
  });

  it('an output guardrail trips on the final answer and ends the prompt at once', async () => {
    const guard = definePlugin({
      id: 'tone',
      guardrails: {
        output: ({ text }) => (text.includes('darn') ? { trip: 'Mind your language.' } : undefined),
      },
    });
    const t = await createTestPlatform({ plugins: [guard], script: [reply('oh darn'), reply('fine')] });
    const prompt = await t.send('hi');
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason).toEqual({ code: 'guardrail', message: 'Mind your language.' });
    expect(t.model.requests).toHaveLength(1);
  });

  it('a guardrail that throws trips (failing closed), and the failure is published', async () => {
    const guard = definePlugin({
      id: 'broken',
      guardrails: {
        input: () => {
          throw new Error('offline');
        },
      },
    });
    const t = await createTestPlatform({ plugins: [guard], script: [reply('ok')] });
    const events = eventsOf(t);
    const prompt = await t.send('hi');
    expect(prompt.stopReason?.code).toBe('guardrail');
    expect(prompt.stopReason?.message).toContain('offline');
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['prompt.hook-failed', 'prompt.guardrail-tripped']),
    );
  });
});

describe('permission policy', () => {
  it('deny records an error the model reads; ask makes a call wait; allow waives requireApproval', async () => {
    const { plugin, ran } = toolbox();
    const policy = definePlugin({
      id: 'policy',
      permissions: ({ call }) => {
        if (call.toolId === 'demo.fail') return { decision: 'deny', reason: 'not here' };
        if (call.toolId === 'demo.echo') return 'ask';
        if (call.toolId === 'demo.delete') return 'allow';
        return undefined;
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin, policy],
      script: [
        callTools(
          { name: 'demo.fail', args: {} },
          { name: 'demo.delete', args: { id: 'r' } },
          { name: 'demo.echo', args: { text: 'x' } },
        ),
        reply('ok'),
      ],
    });
    const paused = await t.send('go');
    const [fail, remove, echo] = calls(paused);
    expect(fail?.result).toMatchObject({
      type: 'error',
      error: { code: 'denied', message: expect.stringContaining('not here') },
    });
    expect(remove?.result).toEqual({ type: 'success', output: { deleted: 'r' } });
    expect(echo?.result?.type).toBe('pending');
    expect(ran.map((r) => r.tool)).toEqual(['demo.delete']);
  });

  it('the strictest verdict of several policies wins, and a policy that throws asks', async () => {
    const { plugin, ran } = toolbox();
    const lenient = definePlugin({ id: 'lenient', permissions: () => 'allow' });
    const strict = definePlugin({
      id: 'strict',
      permissions: ({ call }) => (call.toolId === 'demo.pay' ? 'deny' : undefined),
    });
    const broken = definePlugin({
      id: 'broken',
      permissions: ({ call }) => {
        if (call.toolId === 'demo.echo') throw new Error('x');
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin, lenient, strict, broken],
      script: [
        callTools({ name: 'demo.pay', args: { amount: 1 } }, { name: 'demo.echo', args: { text: 'y' } }),
        reply('ok'),
      ],
    });
    const paused = await t.send('go');
    const [pay, echo] = calls(paused);
    expect(pay?.result).toMatchObject({ error: { code: 'denied' } });
    expect(echo?.result).toMatchObject({ type: 'pending', reason: expect.stringContaining('broken') });
    expect(ran).toEqual([]);
  });
});
