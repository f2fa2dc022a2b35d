import {
  APICallError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import {
  createPlatform,
  createTool,
  DefinitionError,
  definePlugin,
  ModelError,
  type ModelRequest,
  type ModelStreamEvent,
  type ReasoningOutput,
  type ToolOutput,
} from '@tessera/core';
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AISDKLanguageModel, createAISDKProvider } from '../src/index.ts';

const usage = (input: number, output: number, cacheRead?: number, reasoning?: number) => ({
  inputTokens: { total: input, noCache: undefined, cacheRead, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning },
});
const finish = (
  unified: 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'interrupted' | 'other' = 'stop',
) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage: usage(10, 5) }) as const;

const streamOf = (parts: LanguageModelV4StreamPart[]) => ({ stream: ReadableStream.from(parts) });

/** A mock model that answers each call with the next list of parts (or throws the next error). */
function scripted(...answers: (LanguageModelV4StreamPart[] | Error)[]) {
  return new MockLanguageModelV4({
    provider: 'mock.provider',
    modelId: 'mock-model',
    doStream: async () => {
      const next = answers.shift();
      if (!next) throw new Error('no answer scripted');
      if (next instanceof Error) throw next;
      return streamOf(next);
    },
  });
}

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'mock-model',
  modelClass: 'normal',
  instructions: 'Be brief.',
  messages: [{ type: 'message', role: 'user', content: 'Hi' }],
  tools: [],
  ...overrides,
});

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const fast = { retryBaseDelayMs: 1, retryMaxDelayMs: 5 };

const apiError = (
  statusCode: number | undefined,
  extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {},
) =>
  new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'http://model',
    requestBodyValues: {},
    statusCode,
    ...extra,
  });

describe('the stream', () => {
  it('maps text, reasoning with its metadata, calls with theirs, usage with cached tokens, and the finish reason', async () => {
    const model = scripted([
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'r1' },
      {
        type: 'reasoning-start',
        id: 'r',
        providerMetadata: { anthropic: { redactedData: undefined as never } },
      },
      { type: 'reasoning-delta', id: 'r', delta: 'Let me ' },
      { type: 'reasoning-delta', id: 'r', delta: 'think.' },
      { type: 'reasoning-delta', id: 'r', delta: '', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Looking' },
      { type: 'text-delta', id: 't', delta: '' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', id: 'c1', toolName: 'email_send' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"to":"a"}' },
      { type: 'tool-input-end', id: 'c1' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'email_send',
        input: '{"to":"a"}',
        providerMetadata: { google: { thoughtSignature: 'ts' } },
      },
      { type: 'tool-call', toolCallId: 'srv', toolName: 'web_search', input: '{}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 'srv', toolName: 'web_search', result: { hits: 1 } },
      { type: 'source', sourceType: 'url', id: 's', url: 'https://example.com' },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: usage(100, 20, 80, 7),
      },
    ]);
    const provider = createAISDKProvider({
      models: { normal: { model, price: { input: 1, cachedInput: 0.1, output: 10 } } },
    });
    const events = await collect(
      provider.stream(
        request({ tools: [{ name: 'email.send', description: 'Send', parameters: { type: 'object' } }] }),
        new AbortController().signal,
      ),
    );
    expect(events).toEqual([
      { type: 'reasoning-delta', delta: 'Let me ' },
      { type: 'reasoning-delta', delta: 'think.' },
      {
        type: 'reasoning',
        text: 'Let me think.',
        providerData: { aiSdk: 'reasoning', providerMetadata: { anthropic: { signature: 'sig' } } },
      },
      { type: 'text-delta', delta: 'Looking' },
      {
        type: 'reasoning',
        providerData: {
          aiSdk: 'tool-call',
          callId: 'c1',
          providerMetadata: { google: { thoughtSignature: 'ts' } },
        },
      },
      { type: 'tool-call', callId: 'c1', name: 'email.send', arguments: '{"to":"a"}' },
      {
        type: 'usage',
        usage: {
          inputTokens: 100,
          outputTokens: 20,
          cachedInputTokens: 80,
          reasoningTokens: 7,
          cost: (20 * 1 + 80 * 0.1 + 20 * 10) / 1e6,
        },
      },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    const call = model.doStreamCalls[0]!;
    expect(call.tools).toEqual([
      { type: 'function', name: 'email_send', description: 'Send', inputSchema: { type: 'object' } },
    ]);
    expect(call.toolChoice).toEqual({ type: 'auto' });
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content-filter', 'content_filter'],
    ['other', 'other'],
  ] as const)('maps the finish reason %s to %s', async (unified, reason) => {
    const provider = createAISDKProvider({ models: { normal: scripted([finish(unified)]) } });
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(events.at(-1)).toEqual({ type: 'finish', reason });
  });

  it('adds up usage given only in parts, and counts missing numbers as none', async () => {
    const model = scripted([
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: 3, cacheRead: 4, cacheWrite: 5 },
          outputTokens: { total: undefined, text: 6, reasoning: Number.NaN },
        },
      },
    ]);
    const events = await collect(
      createAISDKProvider({ models: { normal: model } }).stream(request(), new AbortController().signal),
    );
    expect(events[0]).toEqual({
      type: 'usage',
      usage: { inputTokens: 12, outputTokens: 6, cachedInputTokens: 4 },
    });
  });

  it('reads a model of specification v3 (the AI SDK 5 and 6 providers) the same way', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: ReadableStream.from([
          { type: 'text-delta', id: 't', delta: 'Hello' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1, 1) },
        ] as never[]),
      }),
    });
    const events = await collect(
      createAISDKProvider({ models: { normal: model } }).stream(request(), new AbortController().signal),
    );
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'usage', 'finish']);
  });

  it('refuses what is not a v3 or v4 language model when it is created', () => {
    const v2 = {
      specificationVersion: 'v2',
      provider: 'x',
      modelId: 'y',
      doStream: async () => ({}),
    } as unknown as AISDKLanguageModel;
    expect(() => createAISDKProvider({ models: { normal: v2 } })).toThrow(DefinitionError);
    expect(() =>
      createAISDKProvider({ models: { normal: 'anthropic/claude' as unknown as AISDKLanguageModel } }),
    ).toThrow(/not an AI SDK language model/);
  });

  it('picks the model of the prompt’s class, and names each class’s model id', async () => {
    const normal = scripted([finish()]);
    const high = new MockLanguageModelV4({ modelId: 'big', doStream: async () => streamOf([finish()]) });
    const provider = createAISDKProvider({
      models: { normal, high: { model: high, maxOutputTokens: 99, reasoning: 'high' } },
    });
    expect(provider.models).toEqual({ normal: 'mock-model', high: 'big' });
    await collect(provider.stream(request({ modelClass: 'high' }), new AbortController().signal));
    expect(normal.doStreamCalls).toHaveLength(0);
    expect(high.doStreamCalls[0]).toMatchObject({ maxOutputTokens: 99, reasoning: 'high' });
  });
});

describe('the prompt', () => {
  it('sends instructions, user text, each response as one assistant message with its reasoning and calls, then their results', async () => {
    const model = scripted([finish()]);
    await collect(
      createAISDKProvider({ models: { normal: model } }).stream(
        request({
          tools: [{ name: 'email.send', description: 'Send', parameters: { type: 'object' } }],
          messages: [
            { type: 'message', role: 'user', content: 'Send two' },
            {
              type: 'reasoning',
              text: 'Two calls.',
              providerData: { aiSdk: 'reasoning', providerMetadata: { anthropic: { signature: 's' } } },
              responseId: 'r1',
            },
            {
              type: 'reasoning',
              providerData: {
                aiSdk: 'tool-call',
                callId: 'a',
                providerMetadata: { google: { thoughtSignature: 'g' } },
              },
              responseId: 'r1',
            },
            { type: 'message', role: 'assistant', content: 'Sending.', responseId: 'r1' },
            {
              type: 'function_call',
              callId: 'a',
              name: 'email.send',
              arguments: '{"to":"x"}',
              responseId: 'r1',
            },
            {
              type: 'function_call',
              callId: 'b',
              name: 'email.send',
              arguments: '{not json',
              responseId: 'r1',
            },
            { type: 'function_call_output', callId: 'a', output: 'sent' },
            { type: 'function_call_output', callId: 'b', output: 'Error: invalid arguments' },
            // Reasoning another provider left in the record (OpenAI's encrypted content) is not ours to send.
            {
              type: 'reasoning',
              summary: 'hidden',
              providerData: { type: 'reasoning', encrypted_content: 'x' },
              responseId: 'r2',
            },
            { type: 'message', role: 'assistant', content: 'Both sent.', responseId: 'r2' },
            { type: 'message', role: 'user', content: 'Thanks' },
          ],
        }),
        new AbortController().signal,
      ),
    );
    expect(model.doStreamCalls[0]!.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Send two' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Two calls.', providerOptions: { anthropic: { signature: 's' } } },
          { type: 'text', text: 'Sending.' },
          {
            type: 'tool-call',
            toolCallId: 'a',
            toolName: 'email_send',
            input: { to: 'x' },
            providerOptions: { google: { thoughtSignature: 'g' } },
          },
          { type: 'tool-call', toolCallId: 'b', toolName: 'email_send', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'email_send',
            output: { type: 'text', value: 'sent' },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'email_send',
            output: { type: 'text', value: 'Error: invalid arguments' },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Both sent.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ] satisfies LanguageModelV4CallOptions['prompt']);
    expect(model.doStreamCalls[0]!.tools).toHaveLength(1);
  });

  it('sends no tools, no tool choice and no system message when there are none', async () => {
    const model = scripted([finish()]);
    await collect(
      createAISDKProvider({ models: { normal: model } }).stream(
        request({ instructions: '' }),
        new AbortController().signal,
      ),
    );
    const call = model.doStreamCalls[0]!;
    expect(call.tools).toBeUndefined();
    expect(call.toolChoice).toBeUndefined();
    expect(call.prompt).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });
});

describe('errors and retries', () => {
  it.each([
    [apiError(429, { isRetryable: true }), 'rate_limit', true],
    [apiError(529, { isRetryable: true }), 'server', true],
    [apiError(401), 'authentication', false],
    [apiError(400), 'bad_request', false],
    [
      apiError(400, {
        responseBody: '{"error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
      }),
      'context_length',
      false,
    ],
    [
      apiError(429, { isRetryable: true, responseBody: '{"error":{"code":"insufficient_quota"}}' }),
      'rate_limit',
      false,
    ],
    [
      apiError(undefined, { isRetryable: true, message: 'Cannot connect to API: ECONNREFUSED' }),
      'connection',
      true,
    ],
  ])('classifies %s as %s (retryable: %s), with the status', async (error, kind, retryable) => {
    const provider = createAISDKProvider({ models: { normal: scripted(error) }, maxRetries: 0 });
    const thrown = await collect(provider.stream(request(), new AbortController().signal)).catch(
      (e: unknown) => e,
    );
    expect(ModelError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({ kind, retryable, status: error.statusCode });
  });

  it('retries a transient failure before any output, honouring retry-after, then streams the answer', async () => {
    const model = scripted(apiError(503, { isRetryable: true, responseHeaders: { 'retry-after-ms': '1' } }), [
      { type: 'text-delta', id: 't', delta: 'ok' },
      finish(),
    ]);
    const events = await collect(
      createAISDKProvider({ models: { normal: model }, ...fast }).stream(
        request(),
        new AbortController().signal,
      ),
    );
    expect(model.doStreamCalls).toHaveLength(2);
    expect(events[0]).toEqual({ type: 'text-delta', delta: 'ok' });
  });

  it('does not retry a final error, nor a transient one after output had streamed', async () => {
    const bad = scripted(apiError(400), [finish()]);
    await expect(
      collect(
        createAISDKProvider({ models: { normal: bad }, ...fast }).stream(
          request(),
          new AbortController().signal,
        ),
      ),
    ).rejects.toMatchObject({
      kind: 'bad_request',
    });
    expect(bad.doStreamCalls).toHaveLength(1);

    const midway = scripted(
      [
        { type: 'text-delta', id: 't', delta: 'Half' },
        {
          type: 'error',
          error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
      ],
      [finish()],
    );
    const seen: ModelStreamEvent[] = [];
    const failure = await (async () => {
      for await (const event of createAISDKProvider({ models: { normal: midway }, ...fast }).stream(
        request(),
        new AbortController().signal,
      ))
        seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ type: 'text-delta', delta: 'Half' }]);
    expect(ModelError.is(failure)).toBe(true);
    expect(midway.doStreamCalls).toHaveLength(1);
  });

  it('retries a stream that ended without finishing (or said it was interrupted) when nothing had streamed', async () => {
    const model = scripted(
      [],
      [finish('interrupted')],
      [{ type: 'text-delta', id: 't', delta: 'done' }, finish()],
    );
    const events = await collect(
      createAISDKProvider({ models: { normal: model }, ...fast }).stream(
        request(),
        new AbortController().signal,
      ),
    );
    expect(model.doStreamCalls).toHaveLength(3);
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'usage', 'finish']);
    const cut = scripted([{ type: 'text-delta', id: 't', delta: 'cut' }]);
    await expect(
      collect(
        createAISDKProvider({ models: { normal: cut }, ...fast }).stream(
          request(),
          new AbortController().signal,
        ),
      ),
    ).rejects.toMatchObject({
      kind: 'connection',
      message: expect.stringMatching(/Not retried/),
    });
  });

  it('gives up on a model that sends nothing for idleTimeoutMs, as a timeout', async () => {
    const silent = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          start(controller) {
            abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason));
          },
        }),
      }),
    });
    const provider = createAISDKProvider({
      models: { normal: silent },
      idleTimeoutMs: 20,
      maxRetries: 1,
      ...fast,
    });
    await expect(collect(provider.stream(request(), new AbortController().signal))).rejects.toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
    expect(silent.doStreamCalls).toHaveLength(2);
  });
});

describe('cancellation', () => {
  it('passes the signal to the model and ends with its reason when aborted mid-stream', async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(stream) {
            stream.enqueue({ type: 'text-delta', id: 't', delta: 'Hel' });
            abortSignal?.addEventListener('abort', () => stream.error(abortSignal.reason));
          },
        }),
      }),
    });
    const reason = new Error('user stopped');
    const seen: ModelStreamEvent[] = [];
    const failure = await (async () => {
      for await (const event of createAISDKProvider({ models: { normal: model } }).stream(
        request(),
        controller.signal,
      )) {
        seen.push(event);
        controller.abort(reason);
      }
    })().catch((e: unknown) => e);
    expect(failure).toBe(reason);
    expect(seen).toEqual([{ type: 'text-delta', delta: 'Hel' }]);
    expect(model.doStreamCalls[0]!.abortSignal?.aborted).toBe(true);
  });
});

describe('a whole prompt on the platform', () => {
  it('sends the reasoning and call metadata back in the next round, and survives a hostile model (unknown tool, bad JSON, huge arguments)', async () => {
    const huge = JSON.stringify({ note: 'x'.repeat(200_000) });
    const model = scripted(
      [
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Plan.' },
        { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'sig-1' } } },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'notes_add',
          input: '{"text":"milk"}',
          providerMetadata: { google: { thoughtSignature: 'ts-1' } },
        },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'rm_rf', input: '{}' },
        { type: 'tool-call', toolCallId: 'c3', toolName: 'notes_add', input: '{"text":' },
        { type: 'tool-call', toolCallId: 'c4', toolName: 'notes_add', input: huge },
        finish('tool-calls'),
      ],
      [{ type: 'text-delta', id: 't', delta: 'Added milk.' }, finish()],
    );
    const added: string[] = [];
    const notes = createTool({
      id: 'notes.add',
      description: 'Adds a note.',
      input: z.object({ text: z.string().max(100) }),
      invoke: ({ input }) => {
        added.push(input.text);
        return 'added';
      },
    });
    const platform = createPlatform({
      plugins: [definePlugin({ id: 'notes', tools: [notes] })],
      model: createAISDKProvider({ models: { normal: model } }),
    });
    const { id } = await platform.conversations.create({ userId: 'u' });
    const prompt = await platform.send({ conversationId: id, userId: 'u', input: 'Add milk' });
    expect(prompt.state).toBe('completed');
    expect(added).toEqual(['milk']);
    const tools = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
    expect(tools.map((t) => [t.callId, t.result?.type])).toEqual([
      ['c1', 'success'],
      ['c2', 'error'],
      ['c3', 'error'],
      ['c4', 'error'],
    ]);
    expect((prompt.output[0] as ReasoningOutput).text).toBe('Plan.');

    const second = model.doStreamCalls[1]!.prompt;
    const assistant = second.find((m) => m.role === 'assistant')!;
    expect(assistant.content.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'Plan.', providerOptions: { anthropic: { signature: 'sig-1' } } },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'notes_add',
        input: { text: 'milk' },
        providerOptions: { google: { thoughtSignature: 'ts-1' } },
      },
    ]);
    expect(assistant.content.map((part) => part.type)).toEqual([
      'reasoning',
      'tool-call',
      'tool-call',
      'tool-call',
      'tool-call',
    ]);
    const results = second.find((m) => m.role === 'tool')!;
    expect(results.content.map((part) => (part as { toolCallId: string }).toolCallId)).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
    ]);
  });
});
