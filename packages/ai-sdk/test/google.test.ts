import { createGoogleGenerativeAI } from '@ai-sdk/google';
import {
  ModelError,
  type ModelRequest,
  type ReasoningOutput,
  type TextOutput,
  type ToolOutput,
} from '@tessera/core';
import { afterEach, describe, expect, it } from 'vitest';
import { retryAfterMs } from '../src/errors.ts';
import { createAISDKProvider } from '../src/index.ts';
import { cassette, recorded, replayServer } from './replay-server.ts';
import { weatherPlatform } from './weather.ts';

let server: Awaited<ReturnType<typeof replayServer>> | undefined;
afterEach(async () => server?.close());

type Content = { role: string; parts: Record<string, unknown>[] };

/**
 * Runs the recorded conversation through the platform: the call waits for approval, is approved, runs, and
 * the model answers; then our requests are held against the recording client's.
 */
async function approvedConversation(file: string, thinkingConfig: Record<string, unknown>) {
  const recording = cassette(file);
  server = await replayServer(recording.map(({ body }) => ({ body })));
  const google = createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'test' });
  const modelId = new URL(recording[0]!.url).pathname.split('/').at(-1)!.split(':')[0]!;
  const model = createAISDKProvider({
    models: { normal: { model: google(modelId), providerOptions: { google: { thinkingConfig } } } },
  });
  const { platform, calls } = weatherPlatform(model);
  const { id } = await platform.conversations.create({ userId: 'u' });
  const waiting = await platform.send({
    conversationId: id,
    userId: 'u',
    input: "What's the weather in Florence, Italy?",
  });
  expect(waiting.state).toBe('waiting_for_approval');
  const call = waiting.output.find((o): o is ToolOutput => o.type === 'tool')!;
  expect(call).toMatchObject({
    toolId: 'weather',
    input: { location: 'Florence, Italy' },
    result: { type: 'pending' },
  });
  expect(calls).toEqual([]);
  const done = await platform.approve(call.id, { userId: 'u' });
  expect(done.state).toBe('completed');
  expect(calls).toEqual(['Florence, Italy']);
  const [first, second] = server.requests;
  expect(first!.path).toBe(`/v1beta/models/${modelId}:streamGenerateContent?alt=sse`);
  return { waiting, done, recording, first: first!.body, second: second!.body };
}

/** The recorded request's contents, whose `functionResponse` is `{ result }` where the AI SDK sends `{ name, content }`. */
const recordedContents = (body: unknown) => (body as { contents: Content[] }).contents;

describe('Google Gemini through @ai-sdk/google, on recorded traffic', () => {
  it('gemini-2.5-flash: its thought, a call that needs approval, the answer; the thought signature goes back on the call', async () => {
    const { waiting, done, recording, first, second } = await approvedConversation(
      'fantasy--TestGoogleThinking--gemini-2.5-flash--thinking-streaming.yaml',
      { includeThoughts: true, thinkingBudget: 128 },
    );
    const thought = waiting.output[0] as ReasoningOutput;
    expect(thought.type).toBe('reasoning');
    expect(thought.text).toMatch(/^\*\*Determining the Weather Inquiry\*\*/);
    expect(waiting.output.map((o) => o.type)).toEqual(['reasoning', 'reasoning', 'tool']);
    expect((waiting.output[1] as ReasoningOutput).providerData).toMatchObject({
      aiSdk: 'tool-call',
      providerMetadata: { google: { thoughtSignature: expect.stringMatching(/^CiQBvj72/) } },
    });
    expect((done.output.at(-1) as TextOutput).text).toBe('The weather in Florence, Italy is 40 C.');
    expect(done.usage).toMatchObject({ modelCalls: 2, inputTokens: 54 + 146 });

    expect(first).toMatchObject({
      contents: recordedContents(recording[0]!.requestBody),
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 128 } },
      systemInstruction: { parts: [{ text: 'You are a helpful assistant' }] },
    });
    const [user, modelTurn, results] = (second as { contents: Content[] }).contents;
    const recorded = recordedContents(recording[1]!.requestBody);
    expect(user).toEqual(recorded[0]);
    // The call with its thought signature, as the recording client sent it back (its thought text, which
    // it left out, is sent as a thought part: Gemini ignores thoughts sent back).
    expect(modelTurn!.role).toBe('model');
    const sentCall = modelTurn!.parts.find((part) => 'functionCall' in part)!;
    const recordedCall = recorded[1]!.parts[0]!;
    expect(sentCall.thoughtSignature).toBe(recordedCall.thoughtSignature);
    expect(sentCall.functionCall).toMatchObject({
      name: 'weather',
      args: (recordedCall.functionCall as { args: unknown }).args,
    });
    expect(results).toMatchObject({
      role: 'user',
      parts: [{ functionResponse: { name: 'weather', response: { content: '40 C' } } }],
    });
  });

  it('gemini-3-pro-preview: a call whose thought signature Gemini 3 requires back, approved, then the answer', async () => {
    const { waiting, done, recording, second } = await approvedConversation(
      'fantasy--TestGoogleThinking--gemini-3-pro-preview--thinking-streaming.yaml',
      { includeThoughts: true, thinkingLevel: 'high' },
    );
    expect(waiting.output.map((o) => o.type)).toEqual(['reasoning', 'tool']);
    expect((done.output.at(-1) as TextOutput).text).toBe(
      "The current weather in Florence, Italy is 40°C (104°F). Stay cool, it's quite hot!",
    );
    const recorded = recordedContents(recording[1]!.requestBody);
    const [, modelTurn] = (second as { contents: Content[] }).contents;
    expect(modelTurn!.parts).toEqual([
      expect.objectContaining({
        functionCall: expect.objectContaining({ name: 'weather', args: { location: 'Florence, Italy' } }),
        thoughtSignature: recorded[1]!.parts[0]!.thoughtSignature,
      }),
    ]);
  });
});

describe('a Gemini quota error (429 RESOURCE_EXHAUSTED with RetryInfo)', () => {
  const request: ModelRequest = {
    model: 'gemini-2.5-flash',
    modelClass: 'normal',
    instructions: '',
    messages: [{ type: 'message', role: 'user', content: 'Hi' }],
    tools: [],
  };
  const quota = { status: 429, body: recorded('google-429-retry-info.json') };
  const answer = () =>
    cassette('fantasy--TestGoogleThinking--gemini-2.5-flash--thinking-streaming.yaml')[1]!.body;
  const providerAt = (url: string, options: { maxRetries: number }) =>
    createAISDKProvider({
      models: {
        normal: createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: 'test' })('gemini-2.5-flash'),
      },
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 1, // the recorded retryDelay is 34.4 s; the test does not wait it
      ...options,
    });

  it('is a retryable rate limit whose wait is the RetryInfo delay', async () => {
    server = await replayServer([quota]);
    const events = providerAt(server.url, { maxRetries: 0 }).stream(request, new AbortController().signal);
    const error = await (async () => {
      for await (const _ of events);
    })().catch((e: unknown) => e);
    expect(ModelError.is(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'rate_limit', retryable: true, status: 429 });
    expect(retryAfterMs(error as ModelError)).toBe(34_400);
  });

  it('is retried, and the answer that follows streams', async () => {
    server = await replayServer([quota, { body: answer() }]);
    let text = '';
    for await (const event of providerAt(server.url, { maxRetries: 2 }).stream(
      request,
      new AbortController().signal,
    )) {
      if (event.type === 'text-delta') text += event.delta;
    }
    expect(text).toBe('The weather in Florence, Italy is 40 C.');
    expect(server.requests).toHaveLength(2);
  });
});
