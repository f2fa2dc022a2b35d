import type { ModelRequest, ModelStreamEvent } from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../src/index.ts';
import { fixture, fixtureServer, type Reply, sseFromChunks } from './fixture-server.ts';

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const number = { type: 'integer' };
const tools = [
  { name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: {} } },
  {
    name: 'add',
    description: 'Add.',
    parameters: { type: 'object', properties: { a: number, b: number }, required: ['a', 'b'] },
  },
  {
    name: 'multiply',
    description: 'Multiply.',
    parameters: { type: 'object', properties: { a: number, b: number }, required: ['a', 'b'] },
  },
];
const request: ModelRequest = {
  model: 'gpt-4o-mini',
  modelClass: 'normal',
  instructions: 'Be brief.',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools,
};

const json = (body: string): Reply => ({ body, contentType: 'application/json' });

async function run(replies: Reply[], options: OpenAIProviderOptions = {}, signal?: AbortSignal) {
  server = await fixtureServer(replies);
  const provider = createOpenAIProvider({
    apiKey: 'test',
    baseURL: server.baseURL,
    stream: false,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 50,
    ...options,
  });
  const events: ModelStreamEvent[] = [];
  for await (const event of provider.stream(request, signal ?? new AbortController().signal)) {
    events.push(event);
  }
  return events;
}

const calls = (events: ModelStreamEvent[]) =>
  events.flatMap((e) =>
    e.type === 'tool-call' ? [{ callId: e.callId, name: e.name, arguments: JSON.parse(e.arguments) }] : [],
  );

/** The events with the text deltas joined into one: streams split text, a whole answer does not. */
const joined = (events: ModelStreamEvent[]) =>
  events.reduce<ModelStreamEvent[]>((out, event) => {
    const last = out.at(-1);
    if (event.type === 'text-delta' && last?.type === 'text-delta') {
      out[out.length - 1] = { type: 'text-delta', delta: last.delta + event.delta };
    } else out.push(event);
    return out;
  }, []);

/**
 * The events with each reasoning item's ciphertext masked. The API encrypts a reasoning item afresh every
 * time it writes it out: in the recordings, the `encrypted_content` of `response.output_item.done` and of the
 * same item in `response.completed` differ, though both are the item the API accepts back.
 */
const masked = (events: ModelStreamEvent[]) =>
  events.map((event) => {
    const data = event.type === 'reasoning' ? (event.providerData as Record<string, unknown>) : undefined;
    return typeof data?.encrypted_content === 'string'
      ? { ...event, providerData: { ...data, encrypted_content: '(encrypted)' } }
      : event;
  });

describe('without streaming, Responses API', () => {
  it('reads parallel function calls, usage and the finish reason from a whole response', async () => {
    const events = await run([json(fixture('responses-parallel-function-calls.json'))]);
    expect(calls(events)).toEqual([
      { callId: 'call_4duuhyRqgE5yacjdB7N3qLs3', name: 'add', arguments: { a: 2, b: 3 } },
      { callId: 'call_R9NaXdicUFYsl6ROHrFdxe2A', name: 'multiply', arguments: { a: 2, b: 3 } },
    ]);
    expect(events.slice(-2)).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 108, outputTokens: 51, cachedInputTokens: 0, reasoningTokens: 0 },
      },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    const { path, body } = server!.requests[0]!;
    expect(path).toBe('/v1/responses');
    expect(body).not.toHaveProperty('stream');
    expect(body).toMatchObject({ model: 'gpt-4o-mini', store: false, instructions: 'Be brief.' });
  });

  // Each streamed recording ends with `response.completed`, which holds the whole response: served as the
  // body of a call that does not stream, it must give the events the stream gave.
  for (const name of [
    'responses-stream-text.sse',
    'responses-stream-function-call.sse',
    'responses-stream-parallel-function-calls.sse',
    'responses-stream-reasoning-parallel-function-calls.sse',
    'responses-stream-reasoning-summary-function-call.sse',
    'responses-stream-text-and-function-call.sse',
    'responses-stream-cached-tokens.chunks.txt',
  ]) {
    it(`gives the same events as the stream of ${name}`, async () => {
      const sse = name.endsWith('.sse') ? fixture(name) : sseFromChunks(name, 'responses');
      const streamed = await run([{ body: sse }], { stream: true });
      await server!.close();
      const completed = sse
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)))
        .find((event) => event.type === 'response.completed');
      const whole = await run([json(JSON.stringify(completed.response))]);
      expect(masked(whole)).toEqual(masked(joined(streamed)));
      expect(whole.map((e) => e.type)).toContain('finish');
    });
  }
});

describe('without streaming, Chat Completions', () => {
  it('reads a tool call with its arguments, usage and the finish reason', async () => {
    const events = await run([json(fixture('chat-tool-call.json'))], { api: 'chat' });
    expect(calls(events)).toEqual([
      {
        callId: 'call_15X0Q2MmkK1IeFfiol9LFlqb',
        name: 'weather',
        arguments: { location: 'Florence, Italy' },
      },
    ]);
    expect(events.filter((e) => e.type === 'text-delta')).toEqual([]);
    expect(events.slice(-2)).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 61, outputTokens: 16, cachedInputTokens: 0, reasoningTokens: 0 },
      },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    const { path, body } = server!.requests[0]!;
    expect(path).toBe('/v1/chat/completions');
    // The API rejects `stream_options` on a call that does not stream.
    expect(body).not.toHaveProperty('stream');
    expect(body).not.toHaveProperty('stream_options');
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('reads a tool call that a compatible server sent without `type`', async () => {
    const completion = JSON.parse(fixture('chat-tool-call.json'));
    delete completion.choices[0].message.tool_calls[0].type;
    const events = await run([json(JSON.stringify(completion))], { api: 'chat' });
    expect(calls(events)).toEqual([
      {
        callId: 'call_15X0Q2MmkK1IeFfiol9LFlqb',
        name: 'weather',
        arguments: { location: 'Florence, Italy' },
      },
    ]);
  });

  it('keeps parallel tool calls apart, in order', async () => {
    const events = await run([json(fixture('chat-parallel-tool-calls.json'))], { api: 'chat' });
    expect(calls(events)).toEqual([
      { callId: 'call_2wt6qUGrlxczUadZYf3qXyH0', name: 'add', arguments: { a: 2, b: 3 } },
      { callId: 'call_vZOWZaH7tzu0rLZeogtafvrf', name: 'multiply', arguments: { a: 2, b: 3 } },
    ]);
    expect(events.map((e) => e.type)).toEqual(['tool-call', 'tool-call', 'usage', 'finish']);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({
      usage: { inputTokens: 110, outputTokens: 50 },
    });
  });

  it('reads cached prompt tokens (the second of two identical calls) and prices them', async () => {
    const record = JSON.parse(fixture('chat-cached-input-tokens.record.json'));
    const [first, second] = record.attempts.map((attempt: { rawResponseBody: unknown }) =>
      json(JSON.stringify(attempt.rawResponseBody)),
    );
    const price = { input: 0.15, cachedInput: 0.075, output: 0.6 };
    const options = { api: 'chat', prices: { 'gpt-4o-mini': price } } as const;
    const cold = await run([first], options);
    expect(cold).toEqual([
      { type: 'text-delta', delta: 'ok' },
      {
        type: 'usage',
        usage: {
          inputTokens: 10122,
          outputTokens: 1,
          cachedInputTokens: 0,
          reasoningTokens: 0,
          cost: (10122 * 0.15 + 0.6) / 1e6,
        },
      },
      { type: 'finish', reason: 'stop' },
    ]);
    await server!.close();
    const warm = await run([second], options);
    const usage = warm.find((e) => e.type === 'usage');
    expect(usage).toMatchObject({ usage: { inputTokens: 10122, outputTokens: 1, cachedInputTokens: 9984 } });
    expect(usage?.type === 'usage' && usage.usage.cost).toBeCloseTo(
      ((10122 - 9984) * 0.15 + 9984 * 0.075 + 0.6) / 1e6,
      12,
    );
    expect(warm.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });
});

describe('without streaming, errors, retries, timeouts and abort', () => {
  const overloaded = { status: 503, body: '{"error":{"message":"overloaded","type":"server_error"}}' };

  it('retries a 5xx, then reads the whole answer', async () => {
    const events = await run([overloaded, json(fixture('chat-tool-call.json'))], { api: 'chat' });
    expect(server!.requests).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('does not retry a used-up quota', async () => {
    const error = await run([
      { status: 429, body: fixture('responses-error-insufficient-quota.json') },
      json(fixture('responses-parallel-function-calls.json')),
    ]).catch((e) => e);
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryable: false });
    expect(server!.requests).toHaveLength(1);
  });

  it('is bounded by timeoutMs, not the idle timeout, and retries a call that timed out', async () => {
    const body = fixture('responses-parallel-function-calls.json');
    const slow = await run([json(body)], { idleTimeoutMs: 1, timeoutMs: 5_000 });
    expect(slow.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    await server!.close();

    const events = await run([{ ...json(body), stallAfter: 0 }, json(body)], { timeoutMs: 200 });
    expect(server!.requests).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    await server!.close();

    const error = await run([{ ...json(body), stallAfter: 10 }], { timeoutMs: 200, maxRetries: 0 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('stops at once when aborted while waiting for the answer', async () => {
    const controller = new AbortController();
    const body = fixture('chat-tool-call.json');
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    // The stalled answer ends only by the abort: the timeout would end it with another error, and later.
    await expect(
      run([{ ...json(body), stallAfter: 0 }], { api: 'chat', timeoutMs: 10_000 }, controller.signal),
    ).rejects.toThrow('user cancelled');
  });
});
