import { ModelError, type ModelRequest, type ModelStreamEvent } from '@tessera/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

/** Every event the provider streamed, and the error it ended with, if any. */
async function collect(replies: Parameters<typeof fixtureServer>[0], options = {}) {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of providerFor(await serve(replies), options).stream(request, never))
      events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error: error as ModelError };
  }
}

const never = new AbortController().signal;
const serve = async (replies: Parameters<typeof fixtureServer>[0]) => {
  server = await fixtureServer(replies);
  return server;
};
const providerFor = (s: { baseURL: string }, options = {}) =>
  createOpenAIProvider({
    apiKey: 'test',
    baseURL: s.baseURL,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 50,
    ...options,
  });

const text = (events: ModelStreamEvent[]) =>
  events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
const responsesText = fixture('responses-stream-text.sse');
const chatText = fixture('chat-stream-text.sse');
/** The Responses stream up to (not including) the event that ends its first text part: text was streamed. */
const afterFirstText = responsesText.indexOf('event: response.content_part.done');

describe('the wire: failures before any output are retried, after it they are not', () => {
  it('retries a connection dropped after the headers, before any output (Responses and Chat)', async () => {
    for (const [api, body] of [
      ['responses', responsesText],
      ['chat', chatText],
    ] as const) {
      const { events, error } = await collect([{ body, dropAfter: 0 }, { body }], { api });
      expect(error).toBeUndefined();
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
      expect(server!.requests).toHaveLength(2);
      await server!.close();
    }
  });

  it('retries a connection dropped after events that carry no output yet', async () => {
    const beforeText = responsesText.indexOf('event: response.output_text.delta');
    const { events, error } = await collect([
      { body: responsesText, dropAfter: beforeText },
      { body: responsesText },
    ]);
    expect(error).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server!.requests).toHaveLength(2);
  });

  it('retries a stream that closes inside its first event, as a cut connection, not as bad JSON', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { events, error } = await collect([
        { body: responsesText.slice(0, 300) },
        { body: responsesText },
      ]);
      expect(error).toBeUndefined();
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
      expect(server!.requests).toHaveLength(2);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('gives up with a connection error, never repeating text, when the connection drops after output', async () => {
    const { events, error } = await collect([
      { body: responsesText, dropAfter: afterFirstText },
      { body: responsesText },
    ]);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'connection', retryable: true });
    expect(error!.message).toContain('after part of the answer had streamed');
    expect(server!.requests).toHaveLength(1);
    // Each delta sent before the drop, once.
    const sent = responsesText
      .slice(0, afterFirstText)
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
      .filter((event) => event.type === 'response.output_text.delta');
    expect(sent.length).toBeGreaterThan(0);
    expect(text(events)).toBe(sent.map((event) => event.delta).join(''));
  });

  it('counts SSE keep-alive comments as liveness: a slow first token is not aborted and re-requested', async () => {
    const { events, error } = await collect(
      [{ body: responsesText, keepAlive: { everyMs: 40, times: 10 } }, { body: responsesText }],
      { idleTimeoutMs: 250 },
    );
    expect(error).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server!.requests).toHaveLength(1);
  });
});

const sse = (api: 'responses' | 'chat', data: object) =>
  api === 'responses'
    ? `event: error\ndata: ${JSON.stringify(data)}\n\n`
    : `data: ${JSON.stringify(data)}\n\n`;

describe('the wire: keep-alive comments do not keep a call alive forever', () => {
  it('gives up on a stream that sends only keep-alive comments for timeoutMs, as a timeout', async () => {
    const { error } = await collect([{ body: responsesText, keepAlive: { everyMs: 20, times: 200 } }], {
      idleTimeoutMs: 150,
      timeoutMs: 400,
      maxRetries: 0,
    });
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(error!.message).toContain('keep-alive');
  });
});

describe('the wire: in-stream errors are classified by their code or status', () => {
  const cases = [
    // OpenAI's Responses `error` event, flat and nested.
    [
      'responses',
      { type: 'error', code: 'context_length_exceeded', message: 'too long' },
      'context_length',
      false,
    ],
    [
      'responses',
      { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } },
      'bad_request',
      false,
    ],
    ['responses', { type: 'error', code: 'server_error', message: 'oops' }, 'server', true],
    ['responses', { type: 'error', code: 'rate_limit_exceeded', message: 'slow down' }, 'rate_limit', true],
    [
      'responses',
      { type: 'error', error: { code: 'insufficient_quota', message: 'pay' } },
      'rate_limit',
      false,
    ],
    // OpenRouter's error chunks on Chat Completions: numeric codes are HTTP statuses.
    ['chat', { error: { code: 400, message: 'Provider returned error' } }, 'bad_request', false],
    ['chat', { error: { code: 401, message: 'No auth' } }, 'authentication', false],
    ['chat', { error: { code: 408, message: 'Timed out' } }, 'timeout', true],
    ['chat', { error: { code: 429, message: 'Rate limited' } }, 'rate_limit', true],
    ['chat', { error: { code: 502, message: 'Provider down' } }, 'server', true],
    ['chat', { error: { code: 'invalid_request_error', message: 'bad' } }, 'bad_request', false],
  ] as const;

  for (const [api, data, kind, retryable] of cases) {
    it(`${api}: ${JSON.stringify(data)} is ${kind}, ${retryable ? 'retried' : 'not retried'}`, async () => {
      const { error } = await collect([{ body: sse(api, data) }, { body: sse(api, data) }], {
        api,
        maxRetries: 1,
      });
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ kind, retryable });
      expect(server!.requests).toHaveLength(retryable ? 2 : 1);
    });
  }
});

describe('the wire: the SDK logs through the provider', () => {
  const malformed = 'event: response.created\ndata: {"type":"response.created",oops}\n\n';

  it('prints nothing of its own by default, and gives the error to the caller', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { error } = await collect([{ body: malformed }], { maxRetries: 0 });
      expect(error).toMatchObject({ kind: 'server' });
      expect(error!.message).toContain('not valid JSON');
      expect(errors).not.toHaveBeenCalled();
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      warnings.mockRestore();
    }
  });

  it("sends the SDK's log lines to the app's logger", async () => {
    const lines: string[] = [];
    const logger = {
      error: (message: string) => lines.push(message),
      warn: () => {},
      info: () => {},
      debug: () => {},
    };
    await collect([{ body: malformed }], { maxRetries: 0, logger });
    expect(lines.join('\n')).toContain('Could not parse message into JSON');
  });
});

describe('the wire: a failed response is classified like an error event', () => {
  const failed = (code: string) =>
    `event: response.failed\ndata: ${JSON.stringify({
      type: 'response.failed',
      sequence_number: 0,
      response: { id: 'resp_1', status: 'failed', output: [], error: { code, message: 'it failed' } },
    })}\n\n`;

  for (const [code, kind, retryable] of [
    ['context_length_exceeded', 'context_length', false],
    ['invalid_prompt', 'bad_request', false],
    ['rate_limit_exceeded', 'rate_limit', true],
    ['server_error', 'server', true],
  ] as const) {
    it(`${code} is ${kind}, ${retryable ? 'retried' : 'not retried'}`, async () => {
      const { error } = await collect([{ body: failed(code) }, { body: failed(code) }], { maxRetries: 1 });
      expect(error).toMatchObject({ kind, retryable });
      expect(error!.message).toContain(code);
      expect(server!.requests).toHaveLength(retryable ? 2 : 1);
    });
  }
});
