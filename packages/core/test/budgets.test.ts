import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTool,
  definePlugin,
  MemoryStore,
  type PauseOutput,
  type Prompt,
  type PromptRun,
  type TesseraEvent,
  type ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

const tools = (prompt: Prompt) => prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
const pauses = (prompt: Prompt) => prompt.output.filter((o): o is PauseOutput => o.type === 'pause');
const pendingPause = (prompt: Prompt) => pauses(prompt).find((pause) => !pause.decision)!;

/** The prompt once the loop a decision resumed stops (`resume` gives the prompt, or a run with `done`). */
async function stopped(resuming: Promise<Prompt | PromptRun>): Promise<Prompt> {
  const result = await resuming;
  return 'done' in result ? result.done : result;
}

describe('budget pauses', () => {
  it('pauses at the round budget, saying which budget, and continues with a larger one from where it stopped', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxRounds: 2 },
      script: [
        callTool('demo.echo', { text: '1' }),
        callTool('demo.echo', { text: '2' }),
        callTool('demo.echo', { text: '3' }),
        reply('Done'),
      ],
    });
    const events: TesseraEvent[] = [];
    t.platform.events.subscribe({}, (event) => {
      events.push(event);
    });
    const paused = await t.send('go');
    expect(paused.state).toBe('waiting_for_approval');
    expect(t.model.requests).toHaveLength(2);
    const pause = pendingPause(paused);
    expect(pause).toMatchObject({
      source: 'budget',
      budget: { name: 'maxRounds', limit: 2, used: 2 },
      reason: expect.stringContaining('larger maxRounds'),
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'prompt.pause-requested',
        outputId: pause.id,
        source: 'budget',
        budget: { name: 'maxRounds', limit: 2, used: 2 },
      }),
    );

    const done = await stopped(
      t.platform.resume(pause.id, { userId: t.userId, choice: 'continue', budgets: { maxRounds: 4 } }),
    );
    expect(done.state).toBe('completed');
    expect(done.stopReason).toBeUndefined();
    expect(t.model.requests).toHaveLength(4);
    expect(tools(done).map((call) => call.input)).toEqual([{ text: '1' }, { text: '2' }, { text: '3' }]);
    expect(pauses(done)[0]).toMatchObject({ decision: 'continue', raised: { maxRounds: 4 } });
    // The model's third call is sent the whole prompt so far: it goes on, not over.
    expect(t.model.requests[2]!.messages.filter((m) => m.type === 'function_call_output')).toHaveLength(2);
  });

  it('ends the prompt when the user stops at a budget pause', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxRounds: 1 },
      script: [callTool('demo.echo', { text: '1' }), reply('never')],
    });
    await t.send('go');
    const stopped = await t.resumePending('stop');
    expect(stopped.state).toBe('completed');
    expect(stopped.stopReason?.code).toBe('stopped_by_user');
    expect(t.model.requests).toHaveLength(1);
  });

  it('keeps the raised budget in the record: a new platform over the same store reads it after a restart', async () => {
    const store = new MemoryStore();
    const { plugin } = toolbox();
    const script = [
      callTool('demo.echo', { text: '1' }),
      callTool('demo.echo', { text: '2' }),
      callTool('demo.echo', { text: '3' }),
      callTool('demo.echo', { text: '4' }),
      reply('never'),
    ];
    const first = await createTestPlatform({ plugins: [plugin], store, budgets: { maxRounds: 1 }, script });
    const paused = await first.send('go');
    const pause = pendingPause(paused);
    await first.platform.close();

    // Another process, with the same configured budget: the raise given there stays the prompt's.
    const second = await createTestPlatform({ plugins: [plugin], store, budgets: { maxRounds: 1 }, script });
    const again = await stopped(
      second.platform.resume(pause.id, {
        userId: first.userId,
        choice: 'continue',
        budgets: { maxRounds: 3 },
      }),
    );
    expect(second.model.requests).toHaveLength(2); // rounds 2 and 3, then it pauses at 3
    const next = pendingPause(again);
    expect(next.budget).toEqual({ name: 'maxRounds', limit: 3, used: 3 });
    expect(tools(again)).toHaveLength(3);
  });

  it('refuses raises that are not larger, not numbers, unknown, or at the wrong pause', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxRounds: 2 },
      script: [callTool('demo.echo', { text: '1' }), callTool('demo.echo', { text: '2' }), reply('ok')],
    });
    const pause = pendingPause(await t.send('go'));
    const resume = (decision: Record<string, unknown>): Promise<Prompt | PromptRun> =>
      t.platform.resume(pause.id, { userId: t.userId, choice: 'continue', ...decision } as never);
    for (const budgets of [
      undefined, // continuing past a budget needs a larger one
      { maxRounds: 2 }, // not larger than what was used
      { maxRounds: 0 },
      { maxRounds: Number.POSITIVE_INFINITY },
      { maxRounds: 2.5 },
      { maxRounds: '10' },
      { maxTokens: 1_000 }, // not the budget reached
      { maxRounds: 5, maxWallTimeMs: 1 }, // not a budget that pauses
      { maxRounds: 5, __proto__: 1, constructor: 3 },
      [5],
      null,
    ]) {
      await expect(resume({ budgets }), JSON.stringify(budgets)).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }
    await expect(
      t.platform.resume(pause.id, { userId: t.userId, choice: 'stop', budgets: { maxRounds: 5 } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    // Still waiting, and a valid raise goes through.
    const done = await stopped(resume({ budgets: { maxRounds: 3 } }));
    expect(done.state).toBe('completed');
  });

  it('pauses at the tool-call budget and runs the calls it held back once raised', async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxToolCalls: 2 },
      script: [
        callTools(...['a', 'b', 'c', 'd'].map((text) => ({ name: 'demo.echo', args: { text } }))),
        reply('Done'),
      ],
    });
    const paused = await t.send('go');
    expect(paused.state).toBe('waiting_for_approval');
    expect(ran.map((r) => r.input)).toEqual([{ text: 'a' }, { text: 'b' }]);
    expect(tools(paused).map((call) => call.result?.type)).toEqual([
      'success',
      'success',
      undefined,
      undefined,
    ]);
    expect(pendingPause(paused).budget).toEqual({ name: 'maxToolCalls', limit: 2, used: 2 });
    const done = await stopped(
      t.platform.resume(pendingPause(paused).id, {
        userId: t.userId,
        choice: 'continue',
        budgets: { maxToolCalls: 10 },
      }),
    );
    expect(done.state).toBe('completed');
    expect(ran.map((r) => r.input)).toEqual(['a', 'b', 'c', 'd'].map((text) => ({ text })));
    expect(tools(done).map((call) => call.result?.type)).toEqual([
      'success',
      'success',
      'success',
      'success',
    ]);
    expect(t.model.requests).toHaveLength(2);
  });

  it('pauses at the input and output token budgets, each on its own', async () => {
    const { plugin } = toolbox();
    const turn = { ...callTool('demo.echo', { text: 'a' }), usage: { inputTokens: 100, outputTokens: 10 } };
    const input = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxInputTokens: 100 },
      script: [turn, reply('never')],
    });
    expect(pendingPause(await input.send('go')).budget).toEqual({
      name: 'maxInputTokens',
      limit: 100,
      used: 100,
    });
    const output = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxOutputTokens: 10, maxInputTokens: 1_000 },
      script: [turn, reply('never')],
    });
    expect(pendingPause(await output.send('go')).budget).toEqual({
      name: 'maxOutputTokens',
      limit: 10,
      used: 10,
    });
    expect(output.model.requests).toHaveLength(1);
  });

  it('pauses at the total token budget', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxTokens: 150 },
      script: [
        { ...callTool('demo.echo', { text: 'a' }), usage: { inputTokens: 100, outputTokens: 60 } },
        reply('never sent'),
      ],
    });
    expect(pendingPause(await t.send('go')).budget).toEqual({ name: 'maxTokens', limit: 150, used: 160 });
    expect(t.model.requests).toHaveLength(1);
  });

  it('pauses at the cost budget, and a provider that reports no cost is not limited by it', async () => {
    const { plugin } = toolbox();
    const priced = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxCost: 0.05 },
      script: [
        { ...callTool('demo.echo', { text: 'a' }), usage: { inputTokens: 10, outputTokens: 5, cost: 0.03 } },
        { ...callTool('demo.echo', { text: 'b' }), usage: { inputTokens: 10, outputTokens: 5, cost: 0.03 } },
        reply('after the raise'),
      ],
    });
    const paused = await priced.send('go');
    const pause = pendingPause(paused);
    expect(pause.budget).toMatchObject({ name: 'maxCost', limit: 0.05 });
    expect(pause.budget?.used).toBeCloseTo(0.06);
    const done = await stopped(
      priced.platform.resume(pause.id, {
        userId: priced.userId,
        choice: 'continue',
        budgets: { maxCost: 0.5 },
      }),
    );
    expect(done.state).toBe('completed');

    const unpriced = await createTestPlatform({
      plugins: [plugin],
      budgets: { maxCost: 0.000_001 },
      script: [callTool('demo.echo', { text: 'a' }), callTool('demo.echo', { text: 'b' }), reply('Done')],
    });
    const prompt = await unpriced.send('go');
    expect(prompt.state).toBe('completed');
    expect(prompt.usage.cost).toBeUndefined();
  });
});

describe('consecutive tool errors', () => {
  /** A tool per letter that fails; `ok` succeeds. */
  const flaky = () => {
    const failing = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) =>
      createTool({
        id: `flaky.${id}`,
        description: 'Fails.',
        input: z.object({}),
        invoke: () => {
          throw new Error(`${id} failed`);
        },
      }),
    );
    const ok = createTool({ id: 'flaky.ok', description: 'Works.', input: z.object({}), invoke: () => 'ok' });
    const careful = createTool({
      id: 'flaky.careful',
      description: 'Asks first.',
      input: z.object({}),
      requireApproval: { required: true, reason: 'Careful.' },
      invoke: () => 'ok',
    });
    return definePlugin({ id: 'flaky', tools: [...failing, ok, careful] });
  };

  it('pauses after that many different calls failed in a row (a success resets the count), and a larger one continues', async () => {
    const t = await createTestPlatform({
      plugins: [flaky()],
      budgets: { maxConsecutiveToolErrors: 3 },
      script: [
        callTool('flaky.a'),
        callTool('flaky.b'),
        callTool('flaky.ok'), // resets
        callTool('flaky.c'),
        callTool('flaky.d'),
        callTool('flaky.e'),
        reply('Done, after all.'),
      ],
    });
    const paused = await t.send('go');
    expect(paused.state).toBe('waiting_for_approval');
    expect(t.model.requests).toHaveLength(6);
    expect(pendingPause(paused)).toMatchObject({
      source: 'budget',
      budget: { name: 'maxConsecutiveToolErrors', limit: 3, used: 3 },
      reason: expect.stringContaining('3 tool calls failed in a row'),
    });
    const done = await t.resumePending('continue', { maxConsecutiveToolErrors: 4 });
    expect(done.state).toBe('completed');
    expect(done.output.at(-1)).toMatchObject({ type: 'text', text: 'Done, after all.' });
  });

  it('does not count calls the user rejected', async () => {
    const t = await createTestPlatform({
      plugins: [flaky()],
      budgets: { maxConsecutiveToolErrors: 2 },
      script: [callTool('flaky.a'), callTool('flaky.careful'), callTool('flaky.b'), reply('never')],
    });
    await t.send('go');
    const afterReject = await t.rejectPending({ reason: 'no' });
    // a failed, careful rejected (not counted), b failed: two in a row.
    expect(pendingPause(afterReject).budget).toEqual({
      name: 'maxConsecutiveToolErrors',
      limit: 2,
      used: 2,
    });
    expect(t.model.requests).toHaveLength(3);
  });
});

describe('tool calls running at once', () => {
  it('runs at most maxConcurrentTools of one response at once, the results in the model’s order', async () => {
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const started: number[] = [];
    const wait = createTool({
      id: 'gate.wait',
      description: 'Waits on a gate.',
      input: z.object({ n: z.number() }),
      readOnly: true,
      invoke: async ({ input }) => {
        running++;
        most = Math.max(most, running);
        started.push(input.n);
        await new Promise<void>((open) => gates.push(open));
        running--;
        return { n: input.n };
      },
    });
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'gate', tools: [wait] })],
      budgets: { maxConcurrentTools: 2 },
      script: [callTools(...[1, 2, 3, 4, 5].map((n) => ({ name: 'gate.wait', args: { n } }))), reply('Done')],
    });
    const sending = t.send('go');
    // Open the gates one at a time, in the order the calls came to them.
    const opening = (async () => {
      for (let opened = 0; opened < 5; ) {
        const gate = gates.shift();
        if (gate) {
          gate();
          opened++;
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const prompt = await sending;
    await opening;
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(tools(prompt).map((call) => call.result)).toEqual(
      [1, 2, 3, 4, 5].map((n) => ({ type: 'success', output: { n } })),
    );
  });
});
