import { callTool, reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoPlugin } from '../src/index.ts';
import { BOB, testServer } from './harness.ts';

let t: Awaited<ReturnType<typeof testServer>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /api/prompts/{id}/report', () => {
  it("serves a prompt's run report, derived from its record, to its owner only", async () => {
    t = await testServer(
      [
        { ...callTool('demo.weather', { city: 'Paris' }), usage: { inputTokens: 120, outputTokens: 12 } },
        reply('Sunny.', { usage: { inputTokens: 150, outputTokens: 4, cachedInputTokens: 100 } }),
      ],
      { plugins: [demoPlugin] },
    );
    const { body: conversation } = await t.request('POST', '/api/conversations', { body: {} });
    const sent = await t.request('POST', `/api/conversations/${conversation.id}/prompts`, {
      body: { input: 'Weather in Paris?' },
    });
    const id = sent.body.prompt.id;
    await vi.waitFor(
      async () => expect((await t!.request('GET', `/api/prompts/${id}`)).body.state).toBe('completed'),
      { timeout: 30_000 },
    );

    const report = await t.request('GET', `/api/prompts/${id}/report`);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      promptId: id,
      state: 'completed',
      stop: 'completed',
      modelCalls: [
        { inputTokens: 120, outputTokens: 12, finishReason: 'tool_calls', toolCalls: 1 },
        { inputTokens: 150, outputTokens: 4, cachedInputTokens: 100, finishReason: 'stop', toolCalls: 0 },
      ],
      toolCalls: [{ toolId: 'demo.weather', outcome: 'success' }],
      totals: { modelCalls: 2, toolCalls: 1, inputTokens: 270, outputTokens: 16, cachedInputTokens: 100 },
    });
    expect(report.body.toolCalls[0].resultBytes).toBeGreaterThan(0);
    expect(typeof report.body.totalMs).toBe('number');
    // The context after it: the provider's count of the last call (nothing came after), of the history budget.
    expect(report.body.context).toEqual({ tokens: 154, reported: 154, estimated: 0, budget: 100_000 });

    const other = await t.request('GET', `/api/prompts/${id}/report`, { token: BOB });
    expect(other.status).toBe(404);
    const unknown = await t.request('GET', '/api/prompts/prm_nothing/report');
    expect(unknown.status).toBe(404);
  });
});
