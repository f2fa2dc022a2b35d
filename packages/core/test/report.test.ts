import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTool, definePlugin, type Prompt, promptReport } from '../src/index.ts';

/** A tool that takes `ms` of the (fake) clock, and one that fails. */
const clockPlugin = definePlugin({
  id: 'clock',
  tools: [
    createTool({
      id: 'clock.wait',
      description: 'Waits.',
      input: z.object({ ms: z.number() }),
      invoke: async ({ input }) => {
        await new Promise((resolve) => setTimeout(resolve, input.ms));
        return { waited: input.ms };
      },
    }),
    createTool({
      id: 'clock.fail',
      description: 'Fails.',
      input: z.object({}),
      invoke: () => {
        throw new Error('broken');
      },
    }),
  ],
});

/** Runs a send on fake timers to its end, so the report's times are the script's, exactly. */
async function sendOnFakeClock(t: Awaited<ReturnType<typeof createTestPlatform>>, input: string) {
  const done = t.send(input);
  await vi.runAllTimersAsync();
  return done;
}

describe('promptReport', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports each model call (latency, first token, usage, finish) and tool call (latency, size, outcome)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: Date.UTC(2026, 0, 1) });
    const t = await createTestPlatform({
      plugins: [clockPlugin],
      script: [
        {
          ...callTool('clock.wait', { ms: 40 }),
          delayMs: 200,
          streamMs: 50,
          usage: { inputTokens: 1000, outputTokens: 20, cachedInputTokens: 800, cost: 0.01 },
        },
        { ...callTool('clock.fail'), delayMs: 100, usage: { inputTokens: 1100, outputTokens: 10 } },
        reply(['The ', 'answer.'], {
          delayMs: 300,
          streamMs: 25,
          usage: { inputTokens: 1200, outputTokens: 30 },
        }),
      ],
    });
    const prompt = await sendOnFakeClock(t, 'Wait, then fail, then answer');
    const report = promptReport(prompt as Prompt);

    expect(report.state).toBe('completed');
    expect(report.stop).toBe('completed');
    expect(report.modelCalls).toHaveLength(3);
    const [first, second, third] = report.modelCalls;
    expect(first).toMatchObject({
      model: expect.any(String),
      latencyMs: 250,
      timeToFirstTokenMs: 200,
      inputTokens: 1000,
      outputTokens: 20,
      cachedInputTokens: 800,
      cost: 0.01,
      finishReason: 'tool_calls',
      toolCalls: 1,
    });
    expect(second).toMatchObject({ latencyMs: 100, timeToFirstTokenMs: 100, finishReason: 'tool_calls' });
    expect(third).toMatchObject({
      latencyMs: 325,
      timeToFirstTokenMs: 300,
      inputTokens: 1200,
      finishReason: 'stop',
      toolCalls: 0,
    });

    expect(report.toolCalls).toEqual([
      expect.objectContaining({
        toolId: 'clock.wait',
        outcome: 'success',
        latencyMs: 40,
        resultBytes: JSON.stringify({ waited: 40 }).length,
      }),
      expect.objectContaining({ toolId: 'clock.fail', outcome: 'error', errorCode: 'tool_failed' }),
    ]);
    expect(report.totals).toMatchObject({
      modelCalls: 3,
      toolCalls: 2,
      failedToolCalls: 1,
      inputTokens: 3300,
      outputTokens: 60,
      cachedInputTokens: 800,
      modelMs: 675,
      toolMs: 40,
    });
    expect(report.totalMs).toBe(715);
    // Derived from the record alone: the stored prompt gives the same report.
    const stored = await t.platform.getPrompt(prompt.id, t.userId);
    expect(promptReport(stored as Prompt)).toEqual(report);
  });

  it('keeps the facts of a call whose outputs were all recorded while it streamed', async () => {
    // Reasoning recorded at once, then nothing more: the facts are added to the recorded output afterwards.
    const t = await createTestPlatform({
      script: [
        { events: [{ type: 'reasoning', summary: 'Thinking' }], usage: { inputTokens: 7, outputTokens: 3 } },
      ],
    });
    const prompt = await t.send('Think');
    const report = promptReport(prompt as Prompt);
    expect(report.modelCalls).toEqual([
      expect.objectContaining({ inputTokens: 7, outputTokens: 3, finishReason: 'stop', toolCalls: 0 }),
    ]);
  });

  it('reports a failed model call and the stop reason', async () => {
    const t = await createTestPlatform({
      script: [{ text: ['Half an ans', 'wer'], breakAfter: 1, error: 'The model went away.' }],
    });
    const prompt = await t.send('Hi');
    const report = promptReport(prompt as Prompt);
    expect(report.state).toBe('failed');
    expect(report.stop).toBe(prompt.stopReason?.code);
    expect(report.modelCalls).toEqual([expect.objectContaining({ inputTokens: 0, toolCalls: 0 })]);
    expect(report.modelCalls[0]?.finishReason).toBeUndefined();
  });
});
