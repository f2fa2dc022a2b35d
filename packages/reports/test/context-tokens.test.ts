import { createTool, definePlugin, estimateTokens, type Prompt } from '@tessera/core';
import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contextTokens, promptReport } from '../src/index.ts';

const plugin = definePlugin({
  id: 'demo',
  tools: [
    createTool({
      id: 'demo.echo',
      description: 'Echo the text back.',
      input: z.object({ text: z.string() }),
      invoke: ({ input }) => ({ echoed: input.text }),
    }),
  ],
});

describe('contextTokens', () => {
  it("anchors on the provider's last count and estimates only what came after it", async () => {
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        {
          ...callTool('demo.echo', { text: 'x'.repeat(400) }),
          usage: { inputTokens: 1000, outputTokens: 50 },
        },
        reply('Done.', { usage: { inputTokens: 1300, outputTokens: 7 } }),
      ],
    });
    const [first] = [await t.send('Echo a lot')] as Prompt[];
    const anchored = contextTokens([first!]);
    // Nothing after the last call: the provider's count alone.
    expect(anchored).toMatchObject({ tokens: 1307, reported: 1307, estimated: 0 });

    // A new prompt not yet sent to the model: only its input is estimated.
    const next = { ...first!, id: 'prm_next', input: 'y'.repeat(400), output: [] } as Prompt;
    const withNext = contextTokens([first!], { current: next });
    const estimate = estimateTokens([{ type: 'message', role: 'user', content: 'y'.repeat(400) }]);
    expect(withNext).toMatchObject({ reported: 1307, estimated: estimate, tokens: 1307 + estimate });

    // The report says the same, with the budget it is measured against.
    expect(promptReport(next, { history: [first!], budget: 100_000 }).context).toEqual({
      tokens: withNext.tokens,
      reported: 1307,
      estimated: estimate,
      budget: 100_000,
    });
  });

  it('estimates the results of the last call, which came after it', async () => {
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        {
          ...callTool('demo.echo', { text: 'z'.repeat(800) }),
          usage: { inputTokens: 500, outputTokens: 40 },
        },
        { error: 'The model went away.' },
      ],
    });
    const prompt = (await t.send('Echo')) as Prompt;
    const context = contextTokens([prompt]);
    expect(context.reported).toBe(540);
    expect(context.estimated).toBeGreaterThanOrEqual(200); // the echoed 800 characters
  });

  it('estimates everything when no call reported usage', () => {
    const prompt = {
      id: 'prm_1',
      conversationId: 'c',
      userId: 'u',
      model: 'normal',
      visible: true,
      state: 'completed',
      input: 'a'.repeat(80),
      output: [{ type: 'text', id: 'out_1', createdAt: '2026-01-01T00:00:00.000Z', text: 'b'.repeat(40) }],
      usage: {
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        reasoningTokens: 0,
        totalTokens: 0,
        modelCalls: 1,
      },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    } as Prompt;
    expect(contextTokens([prompt])).toEqual({ tokens: Math.ceil((88 + 48) / 4), reported: 0, estimated: 34 });
  });
});
