import { ModelError, type ModelRequest } from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer, sseFromChunks } from './fixture-server.ts';

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

const request: ModelRequest = {
  model: 'gpt-4o-mini',
  modelClass: 'normal',
  instructions: '',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools: [],
};

async function run(
  replies: Parameters<typeof fixtureServer>[0],
  options = {},
  signal = new AbortController().signal,
) {
  server = await fixtureServer(replies);
  const provider = createOpenAIProvider({
    apiKey: 'test',
    baseURL: server.baseURL,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 50,
    ...options,
  });
  const events = [];
  for await (const event of provider.stream(request, signal)) events.push(event);
  return events;
}

const serverError = { status: 503, body: '{"error":{"message":"overloaded","type":"server_error"}}' };

describe('errors and retries', () => {
  it('retries 5xx and then succeeds', async () => {
    const events = await run([serverError, serverError, { body: fixture('responses-stream-text.sse') }]);
    expect(server!.requests).toHaveLength(3);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('honours retry-after-ms on a rate limit', async () => {
    const limited = {
      status: 429,
      body: '{"error":{"message":"slow down","type":"rate_limit_exceeded"}}',
      headers: { 'retry-after-ms': '30' },
    };
    const started = Date.now();
    await run([limited, { body: fixture('responses-stream-text.sse') }], { retryMaxDelayMs: 5_000 });
    expect(server!.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('gives up after maxRetries with a typed, retryable error', async () => {
    const error = await run([serverError, serverError, serverError], { maxRetries: 2 }).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'server', status: 503, retryable: true });
    expect(server!.requests).toHaveLength(3);
  });

  it('does not retry a used-up quota (a 429 that waiting does not fix)', async () => {
    const error = await run([
      { status: 429, body: fixture('responses-error-insufficient-quota.json') },
    ]).catch((e) => e);
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryable: false });
    expect(server!.requests).toHaveLength(1);
  });

  it('does not retry bad requests, authentication or context-length errors', async () => {
    for (const [status, body, kind] of [
      [400, '{"error":{"message":"bad","type":"invalid_request_error"}}', 'bad_request'],
      [401, '{"error":{"message":"no key","type":"invalid_request_error"}}', 'authentication'],
      [400, '{"error":{"message":"too long","code":"context_length_exceeded"}}', 'context_length'],
    ] as const) {
      const error = await run([{ status, body }]).catch((e) => e);
      expect(error).toMatchObject({ kind, retryable: false, status });
      expect(server!.requests).toHaveLength(1);
      await server!.close();
    }
  });

  it('turns an error event mid-stream into a model error, without retrying what already streamed', async () => {
    const error = await run([
      { body: sseFromChunks('responses-stream-error-insufficient-quota.chunks.txt', 'responses') },
      { body: fixture('responses-stream-text.sse') },
    ]).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toContain('quota');
    expect(server!.requests).toHaveLength(1);
  });

  it('retries 429 (honouring retry-after), then 500, then succeeds', async () => {
    const events = await run([
      {
        status: 429,
        body: '{"error":{"message":"slow down","type":"rate_limit_exceeded"}}',
        headers: { 'retry-after': '0' },
      },
      { status: 500, body: '{"error":{"message":"oops","type":"server_error"}}' },
      { body: fixture('responses-stream-text.sse') },
    ]);
    expect(server!.requests).toHaveLength(3);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('gives up on a stream that stalls before sending anything, and retries it', async () => {
    const body = fixture('responses-stream-text.sse');
    const events = await run([{ body, stallAfter: 0 }, { body }], { idleTimeoutMs: 200 });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server!.requests).toHaveLength(2);
  });

  it('fails a stream that stalls after output started, without repeating what was streamed', async () => {
    const body = fixture('responses-stream-text.sse');
    const cut = body.indexOf('event: response.content_part.done');
    const error = await run([{ body, stallAfter: cut }, { body }], { idleTimeoutMs: 200 }).catch((e) => e);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(server!.requests).toHaveLength(1);
  });

  it('retries a stream that ends before the response is complete', async () => {
    const truncated = {
      body: fixture('responses-stream-text.sse').split('event: response.output_item.added')[0]!,
    };
    const events = await run([truncated, { body: fixture('responses-stream-text.sse') }]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server!.requests).toHaveLength(2);
  });

  it('stops at once when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    await expect(run([serverError, serverError], {}, controller.signal)).rejects.toThrow('user cancelled');
  });
});
