import type { ModelRequest, ModelStreamEvent } from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer, sseFromChunks } from './fixture-server.ts';

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const weather = {
  name: 'weather.get',
  description: 'Weather for a location.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};
const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-4o-mini',
  modelClass: 'normal',
  instructions: 'Be brief.',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools: [],
  ...overrides,
});

async function run(replies: Parameters<typeof fixtureServer>[0], req = request(), options = {}) {
  server = await fixtureServer(replies);
  const provider = createOpenAIProvider({
    apiKey: 'test',
    baseURL: server.baseURL,
    retryBaseDelayMs: 1,
    ...options,
  });
  const events: ModelStreamEvent[] = [];
  for await (const event of provider.stream(req, new AbortController().signal)) events.push(event);
  return events;
}

describe('Responses API, against recorded traffic', () => {
  it('streams text deltas, usage and the finish reason', async () => {
    const events = await run([{ body: fixture('responses-stream-text.sse') }]);
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
    expect(text).toBe('Hi in Portuguese is "Oi!"');
    expect(events.at(-2)).toEqual({
      type: 'usage',
      usage: { inputTokens: 20, outputTokens: 8, cachedInputTokens: 0, reasoningTokens: 0 },
    });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('maps the request exactly: instructions, input items, tools by API-safe name, strict schemas', async () => {
    await run(
      [{ body: fixture('responses-stream-function-call.sse') }],
      request({
        tools: [weather],
        messages: [
          { type: 'message', role: 'user', content: 'Weather?' },
          { type: 'function_call', callId: 'c1', name: 'weather.get', arguments: '{"location":"Rome"}' },
          { type: 'function_call_output', callId: 'c1', output: '{"temp":20}' },
          { type: 'message', role: 'assistant', content: 'It is 20.' },
          { type: 'message', role: 'user', content: 'And Florence?' },
        ],
      }),
    );
    const body = server!.requests[0]!.body;
    expect(server!.requests[0]!.path).toBe('/v1/responses');
    expect(body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      store: false,
      instructions: 'Be brief.',
    });
    expect(body.input).toEqual([
      { role: 'user', content: 'Weather?' },
      { type: 'function_call', call_id: 'c1', name: 'weather_get', arguments: '{"location":"Rome"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"temp":20}' },
      { role: 'assistant', content: 'It is 20.' },
      { role: 'user', content: 'And Florence?' },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'weather_get',
        description: 'Weather for a location.',
        strict: true,
        parameters: { ...weather.parameters, additionalProperties: false },
      },
    ]);
  });

  it('returns a function call under the tool id it was offered as', async () => {
    const events = await run(
      [{ body: fixture('responses-stream-function-call.sse') }],
      request({ tools: [{ ...weather, name: 'weather' }] }),
    );
    const calls = events.filter((e) => e.type === 'tool-call');
    expect(calls).toEqual([
      {
        type: 'tool-call',
        callId: expect.any(String),
        name: 'weather',
        arguments: '{"location":"Florence, Italy"}',
      },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('keeps parallel calls apart', async () => {
    const events = await run([{ body: fixture('responses-stream-parallel-function-calls.sse') }]);
    const calls = events.filter((e) => e.type === 'tool-call');
    expect(calls.map((c) => c.type === 'tool-call' && [c.name, c.arguments])).toEqual([
      ['add', '{"a":2,"b":3}'],
      ['multiply', '{"a":2,"b":3}'],
    ]);
    expect(new Set(calls.map((c) => c.type === 'tool-call' && c.callId)).size).toBe(2);
  });

  it('keeps reasoning items (summary and encrypted content) and sends them back', async () => {
    const events = await run(
      [{ body: fixture('responses-stream-reasoning-summary-function-call.sse') }],
      request(),
      {
        models: { 'gpt-4o-mini': { reasoningEffort: 'high' } },
      },
    );
    const reasoning = events.find((e) => e.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.summary?.length).toBeGreaterThan(20);
    const item = reasoning?.type === 'reasoning' ? (reasoning.providerData as Record<string, unknown>) : {};
    expect(item.type).toBe('reasoning');
    expect(typeof item.encrypted_content).toBe('string');
    expect(server!.requests[0]!.body).toMatchObject({
      reasoning: { effort: 'high' },
      include: ['reasoning.encrypted_content'],
    });
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { reasoningTokens: 64 } });
    await server!.close();

    await run(
      [{ body: fixture('responses-stream-text.sse') }],
      request({
        messages: [
          { type: 'message', role: 'user', content: 'Hi' },
          { type: 'reasoning', providerData: item },
        ],
      }),
    );
    expect((server!.requests[0]!.body.input as unknown[])[1]).toEqual(item);
  });

  it('keeps a reasoning item without summary and the parallel calls after it', async () => {
    const events = await run([{ body: fixture('responses-stream-reasoning-parallel-function-calls.sse') }]);
    expect(events.map((e) => e.type)).toEqual(['reasoning', 'tool-call', 'tool-call', 'usage', 'finish']);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({
      usage: { inputTokens: 109, outputTokens: 223, reasoningTokens: 128 },
    });
  });

  it('does not send back a reasoning item without encrypted content (the API would 404 with store: false)', async () => {
    const events = await run([{ body: fixture('responses-stream-reasoning-parallel-function-calls.sse') }]);
    const reasoning = events.find((e) => e.type === 'reasoning');
    const item = reasoning?.type === 'reasoning' ? (reasoning.providerData as Record<string, unknown>) : {};
    expect(item).toMatchObject({ type: 'reasoning', id: expect.stringMatching(/^rs_/) });
    expect(item).not.toHaveProperty('encrypted_content');
    await server!.close();

    await run(
      [{ body: fixture('responses-stream-text.sse') }],
      request({
        messages: [
          { type: 'message', role: 'user', content: 'Hi' },
          { type: 'reasoning', providerData: item },
          { type: 'function_call', callId: 'c1', name: 'add', arguments: '{}' },
          { type: 'function_call_output', callId: 'c1', output: '5' },
        ],
      }),
    );
    const input = server!.requests[0]!.body.input as { type?: string }[];
    expect(input.map((i) => i.type ?? 'message')).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
  });

  it('reads cached input tokens', async () => {
    const events = await run([
      { body: sseFromChunks('responses-stream-cached-tokens.chunks.txt', 'responses') },
    ]);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({
      usage: { inputTokens: 14308, cachedInputTokens: 14080 },
    });
  });

  it('handles text and a function call in one response, with non-ASCII text', async () => {
    const events = await run([{ body: fixture('responses-stream-text-and-function-call.sse') }]);
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
    expect(text).toContain('“PotatoLand.”');
    expect(events.filter((e) => e.type === 'tool-call')).toHaveLength(1);
  });

  it('prices usage when a price table is given', async () => {
    const events = await run([{ body: fixture('responses-stream-text.sse') }], request(), {
      prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } },
    });
    const usage = events.find((e) => e.type === 'usage');
    expect(usage?.type === 'usage' && usage.usage.cost).toBeCloseTo((20 * 0.15 + 8 * 0.6) / 1e6, 12);
  });
});
