import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { definePlugin, type PauseOutput, type TesseraEvent, type ToolOutput } from '../src/index.ts';
import { toolbox } from './helpers.ts';

const calls = (prompt: { output: { type: string }[] }) =>
  prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
const pauseOf = (prompt: { output: { type: string }[] }) =>
  prompt.output.find((o): o is PauseOutput => o.type === 'pause' && !(o as PauseOutput).decision);

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

describe('doom loops', () => {
  it('pauses after the same call three times in a row; continue counts afresh and asks again, stop ends', async () => {
    const { plugin, ran } = toolbox();
    const same = () => callTool('demo.echo', { text: 'again' });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [same(), same(), same(), same(), same(), same(), reply('never')],
    });
    const events = eventsOf(t);
    const paused = await t.send('go');
    expect(paused.state).toBe('waiting_for_approval');
    expect(ran).toHaveLength(3);
    const pause = pauseOf(paused)!;
    expect(pause).toMatchObject({ source: 'doom_loop', reason: expect.stringContaining("'demo.echo'") });
    expect(events.at(-1)).toMatchObject({
      type: 'prompt.pause-requested',
      source: 'doom_loop',
      outputId: pause.id,
    });
    const again = await t.platform.resume(pause.id, { userId: t.userId, choice: 'continue' });
    expect(ran).toHaveLength(6);
    expect(again.state).toBe('waiting_for_approval'); // not switched off by "continue"
    const second = pauseOf(again)!;
    // decide() takes a pause's decision too, and resolves with the run once the decision is recorded.
    const run = await t.platform.decide(second.id, { userId: t.userId, choice: 'stop' });
    expect(run.prompt.output.find((o) => o.id === second.id)).toMatchObject({ decision: 'stop' });
    const stopped = await run.done;
    expect(stopped.state).toBe('completed');
    expect(stopped.stopReason?.code).toBe('stopped_by_user');
    expect(ran).toHaveLength(6);
    expect(events).toContainEqual(expect.objectContaining({ type: 'prompt.pause-decided', choice: 'stop' }));
  });

  it('detects a cycle (A, B, A, B, A, B) across rounds, and can be turned off', async () => {
    const { plugin } = toolbox();
    const a = () => callTool('demo.echo', { text: 'a' });
    const b = () => callTool('demo.echo', { text: 'b' });
    const script = () => [a(), b(), a(), b(), a(), b(), reply('done')];
    const t = await createTestPlatform({ plugins: [plugin], script: script() });
    const paused = await t.send('go');
    expect(pauseOf(paused)?.reason).toMatch(/cycle/);
    expect(calls(paused)).toHaveLength(6);
    const stopped = await t.resumePending('stop');
    expect(stopped.stopReason?.code).toBe('stopped_by_user');
    const off = await createTestPlatform({ plugins: [plugin], script: script(), doomLoop: false });
    expect((await off.send('go')).state).toBe('completed');
  });

  it('cancelling a paused prompt closes the pause', async () => {
    const { plugin } = toolbox();
    const same = () => callTool('demo.echo', { text: 'x' });
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [same(), same(), same()],
      doomLoop: { repeats: 3 },
    });
    const paused = await t.send('go');
    const cancelled = await t.platform.cancel(paused.id, { userId: t.userId });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.output.find((o) => o.type === 'pause')).toMatchObject({ decision: 'stop' });
  });
});
