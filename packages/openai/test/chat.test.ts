import type { ModelRequest, ModelStreamEvent } from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer, sseFromChunks } from './fixture-server.ts';

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-4o',
  modelClass: 'normal',
  instructions: 'Be brief.',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools: [],
  ...overrides,
});

async function run(body: string, req = request()) {
  server = await fixtureServer([{ body }]);
  const provider = createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, api: 'chat' });
  const events: ModelStreamEvent[] = [];
  for await (const event of provider.stream(req, new AbortController().signal)) events.push(event);
  return events;
}

const text = (events: ModelStreamEvent[]) =>
  events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
const calls = (events: ModelStreamEvent[]) => events.filter((e) => e.type === 'tool-call');

describe('Chat Completions, against recorded traffic', () => {
  it('streams text and reads the usage chunk that comes after the finish', async () => {
    const events = await run(fixture('chat-stream-text.sse'));
    expect(text(events)).toContain("I'm unable to provide real-time weather");
    expect(events.at(-2)).toEqual({
      type: 'usage',
      usage: { inputTokens: 14, outputTokens: 30, cachedInputTokens: 0, reasoningTokens: 0 },
    });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server!.requests[0]!.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('assembles a tool call from argument deltas', async () => {
    const events = await run(fixture('chat-stream-tool-call.sse'));
    expect(calls(events)).toEqual([
      {
        type: 'tool-call',
        callId: expect.stringMatching(/^call_/),
        name: 'weather',
        arguments: '{"location":"Florence,Italy"}',
      },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('keeps parallel calls apart by index', async () => {
    const events = await run(fixture('chat-stream-parallel-tool-calls.sse'));
    expect(calls(events).map((c) => c.type === 'tool-call' && c.name)).toEqual([
      'GetWeatherArgs',
      'get_stock_price',
    ]);
    expect(calls(events).map((c) => c.type === 'tool-call' && JSON.parse(c.arguments))).toEqual([
      { city: 'Edinburgh', country: 'GB', units: 'c' },
      { ticker: 'AAPL', exchange: 'NASDAQ' },
    ]);
  });

  it('reports an answer cut by the token limit', async () => {
    const events = await run(fixture('chat-stream-finish-length.sse'));
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });

  it('handles text and a tool call in one choice', async () => {
    const events = await run(sseFromChunks('chat-stream-text-then-tool-call.chunks.txt', 'chat'));
    expect(text(events)).toBe('PRE_TOOL');
    expect(calls(events)).toHaveLength(1);
  });

  it('works with an OpenAI-compatible server (llama.cpp)', async () => {
    const events = await run(fixture('compat-llamacpp-stream-tool-call.sse'));
    expect(calls(events)).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('groups older records (no response ids) as they come: text with the calls after it, then their results', async () => {
    await run(
      fixture('chat-stream-text.sse'),
      request({
        tools: [
          {
            name: 'math.add',
            description: 'Add.',
            parameters: { type: 'object', properties: { a: { type: 'number' } } },
          },
        ],
        messages: [
          { type: 'message', role: 'user', content: 'Add' },
          { type: 'message', role: 'assistant', content: 'Adding.' },
          { type: 'function_call', callId: 'a', name: 'math.add', arguments: '{"a":1}' },
          { type: 'function_call_output', callId: 'a', output: '1' },
          { type: 'function_call', callId: 'b', name: 'math.add', arguments: '{"a":2}' },
          { type: 'function_call_output', callId: 'b', output: '2' },
          { type: 'reasoning', summary: 'dropped' },
        ],
      }),
    );
    const body = server!.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Add' },
      {
        role: 'assistant',
        content: 'Adding.',
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'math_add', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'b', type: 'function', function: { name: 'math_add', arguments: '{"a":2}' } }],
      },
      { role: 'tool', tool_call_id: 'b', content: '2' },
    ]);
    // An optional property cannot be strict: the schema goes as it is, non-strict.
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'math_add',
          description: 'Add.',
          parameters: { type: 'object', properties: { a: { type: 'number' } } },
          strict: false,
        },
      },
    ]);
  });
});
