import { createTool, definePlugin, type Prompt } from '@tessera/core';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { promptReport } from '../src/index.ts';

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

describe('promptReport of a prompt that ran sub-agents', () => {
  it("lists each agent-run with its usage, and adds them up apart from the prompt's own totals", async () => {
    const t = await createTestPlatform({ script: [reply('Done.')] });
    const prompt = await t.send('Go');
    const run = (id: string, agent: string, usage?: object) => ({
      type: 'agent-run',
      id,
      createdAt: prompt.createdAt,
      toolCallId: `call_${id}`,
      agent,
      conversationId: `conv_${id}`,
      promptId: `agent_${id}`,
      task: 'x',
      depth: 1,
      history: 'task',
      state: usage ? 'completed' : 'running',
      ...(usage && { usage }),
    });
    const withRuns = {
      ...prompt,
      output: [
        ...prompt.output,
        run('a', 'researcher', {
          inputTokens: 100,
          outputTokens: 10,
          cachedInputTokens: 0,
          reasoningTokens: 0,
          totalTokens: 110,
          modelCalls: 2,
          cost: 0.5,
        }),
        run('b', 'writer', {
          inputTokens: 50,
          outputTokens: 5,
          cachedInputTokens: 20,
          reasoningTokens: 1,
          totalTokens: 55,
          modelCalls: 1,
        }),
        run('c', 'slow'), // still running: no usage yet
        { ...run('d', 'bad'), state: 'exploded' }, // not a state: not listed
      ],
    } as unknown as Prompt;
    const report = promptReport(withRuns);
    expect(report.subAgents?.runs.map((r) => [r.agent, r.state, r.usage?.modelCalls])).toEqual([
      ['researcher', 'completed', 2],
      ['writer', 'completed', 1],
      ['slow', 'running', undefined],
    ]);
    expect(report.subAgents?.totals).toEqual({
      modelCalls: 3,
      inputTokens: 150,
      outputTokens: 15,
      cachedInputTokens: 20,
      reasoningTokens: 1,
      cost: 0.5,
    });
    expect(report.totals.modelCalls).toBe(1); // the prompt's own
    expect(promptReport(prompt).subAgents).toBeUndefined();
  });
});

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

describe('a compaction in the record', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, totalTokens: 0 };
  const prompt = (id: string, input: string, output: unknown[] = []) =>
    ({
      id,
      conversationId: 'c',
      userId: 'u',
      model: 'normal',
      visible: true,
      state: 'completed',
      input,
      output,
      usage: { ...usage, modelCalls: 1 },
      createdAt: at,
      updatedAt: at,
    }) as Prompt;
  const compaction = {
    type: 'compaction',
    id: 'out_summary',
    createdAt: at,
    through: 'prm_2',
    prompts: 2,
    summary: 'The cat is called Miso.',
    tokensBefore: 900,
    threshold: 500,
    modelCall: { startedAt: at, endedAt: at, usage: { inputTokens: 90, outputTokens: 30 } },
  };

  it('reports the summary call apart from the prompt, and counts the context from the summary on', () => {
    const history = [prompt('prm_1', 'a'.repeat(4_000)), prompt('prm_2', 'b'.repeat(4_000))];
    const current = prompt('prm_3', 'What is my cat called?', [compaction]);
    const report = promptReport(current, { history });
    expect(report.compaction).toMatchObject({
      outputId: 'out_summary',
      prompts: 2,
      summarized: true,
      inputTokens: 90,
      outputTokens: 30,
    });
    expect(report.modelCalls).toEqual([]);
    // The 8,000 characters summarized are not in the context any more: the summary is.
    expect(report.context?.tokens).toBeLessThan(100);
    const uncompacted = promptReport(prompt('prm_3', 'What is my cat called?'), { history });
    expect(uncompacted.context?.tokens).toBeGreaterThan(2_000);
  });
});
