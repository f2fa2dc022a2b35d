import { createAnthropic } from '@ai-sdk/anthropic';
import type { ReasoningOutput, TextOutput, ToolOutput } from '@tessera/core';
import { afterEach, expect, it } from 'vitest';
import { createAISDKProvider } from '../src/index.ts';
import { anthropicSse, cassette, replayServer } from './replay-server.ts';
import { weatherPlatform } from './weather.ts';

/**
 * The recording's messages with each `tool_result`'s content given as a string, as the AI SDK sends a text
 * result; fantasy sent the same text as one text block (the API takes both).
 */
const withTextResults = (messages: unknown) =>
  (messages as { content: { type: string; content?: { text: string }[] }[] }[]).map((message) => ({
    ...message,
    content: message.content.map((block) =>
      block.type === 'tool_result' && Array.isArray(block.content)
        ? { ...block, content: block.content.map((part) => part.text).join('') }
        : block,
    ),
  }));

let server: Awaited<ReturnType<typeof replayServer>> | undefined;
afterEach(async () => server?.close());

const anthropicAt = (url: string) => createAnthropic({ baseURL: `${url}/v1`, apiKey: 'test' });

it('runs a thinking model with a tool call that needs approval over two rounds: approve, the tool runs, the answer (recorded Claude traffic)', async () => {
  const recording = cassette('fantasy--TestAnthropicThinking--claude-sonnet-4--thinking-streaming.yaml');
  server = await replayServer(recording.map(({ body }) => ({ body })));
  const anthropic = anthropicAt(server.url);
  const model = createAISDKProvider({
    models: {
      normal: {
        model: anthropic('claude-sonnet-4-20250514'),
        maxOutputTokens: 4096,
        providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 4000 } } },
      },
    },
  });
  const { platform, calls } = weatherPlatform(model);
  const { id } = await platform.conversations.create({ userId: 'u' });

  const waiting = await platform.send({
    conversationId: id,
    userId: 'u',
    input: "What's the weather in Florence, Italy?",
  });
  expect(waiting.state).toBe('waiting_for_approval');
  // The thinking block, the call's own metadata (Anthropic's `caller`, kept to be sent back), the call.
  expect(waiting.output.map((o) => o.type)).toEqual(['reasoning', 'reasoning', 'tool']);
  const thinking = waiting.output[0] as ReasoningOutput;
  expect(thinking.text).toMatch(/^The user is asking for weather information for Florence, Italy\./);
  expect(thinking.providerData).toEqual({
    aiSdk: 'reasoning',
    providerMetadata: { anthropic: { signature: expect.stringMatching(/^EtYDCkYICxgCKkAVHEWRYo6R/) } },
  });
  expect((waiting.output[1] as ReasoningOutput).providerData).toEqual({
    aiSdk: 'tool-call',
    callId: 'toolu_01Js4AMfx5qpTLhwTusnvT68',
    providerMetadata: { anthropic: { caller: { type: 'direct' } } },
  });
  const call = waiting.output[2] as ToolOutput;
  expect(call).toMatchObject({
    toolId: 'weather',
    callId: 'toolu_01Js4AMfx5qpTLhwTusnvT68',
    input: { location: 'Florence, Italy' },
    result: { type: 'pending' },
  });
  expect(calls).toEqual([]);

  const done = await platform.approve(call.id, { userId: 'u' });
  expect(done.state).toBe('completed');
  expect(calls).toEqual(['Florence, Italy']);
  const answer = done.output.at(-1) as TextOutput;
  expect(answer.type).toBe('text');
  expect(answer.text).toMatch(/Florence/);
  expect(done.usage).toMatchObject({ modelCalls: 2 });
  expect(done.usage.outputTokens).toBeGreaterThan(0);

  // Our requests are the recording client's in what matters: the same prompt, thinking settings and tool,
  // and in the second the thinking block with its signature, then the call, then its result.
  const [first, second] = server.requests.map((r) => r.body);
  expect(server.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
  for (const [ours, theirs] of [
    [first, recording[0]!.requestBody],
    [second, recording[1]!.requestBody],
  ] as const) {
    const recorded = theirs as Record<string, unknown>;
    expect(ours).toMatchObject({
      model: recorded.model,
      max_tokens: 4096 + 4000, // the AI SDK adds the thinking budget to max_tokens; fantasy did not
      thinking: recorded.thinking,
      stream: true,
      system: recorded.system,
      messages: withTextResults(recorded.messages),
    });
    const [tool] = ours!.tools as Record<string, unknown>[];
    const [recordedTool] = recorded.tools as Record<string, unknown>[];
    expect(tool).toMatchObject({ name: recordedTool!.name, description: recordedTool!.description });
    expect(tool!.input_schema).toMatchObject(recordedTool!.input_schema as object);
  }
});

it('reports cached input tokens and passes over the tools the provider ran itself (recorded Claude traffic)', async () => {
  server = await replayServer([
    { body: anthropicSse('anthropic-code-execution-20260120-prompt-cache.1.chunks.txt') },
  ]);
  const provider = createAISDKProvider({ models: { normal: anthropicAt(server.url)('claude-sonnet-5') } });
  const events = [];
  for await (const event of provider.stream(
    {
      model: 'claude-sonnet-5',
      modelClass: 'normal',
      instructions: '',
      messages: [{ type: 'message', role: 'user', content: 'Sum the squares of 1..12' }],
      tools: [],
    },
    new AbortController().signal,
  )) {
    events.push(event);
  }
  // No tool call reaches Tessera: both were code execution that Anthropic ran.
  expect(events.filter((e) => e.type === 'tool-call')).toEqual([]);
  expect(
    events
      .filter((e) => e.type === 'text-delta')
      .map((e) => (e as { delta: string }).delta)
      .join(''),
  ).toBe('The sum of the squares of the numbers 1 through 12 is **650**.');
  const usage = events.find((e) => e.type === 'usage');
  expect(usage).toEqual({
    type: 'usage',
    usage: expect.objectContaining({
      cachedInputTokens: 6289,
      inputTokens: 6 + 3337 + 6289,
      outputTokens: 198,
    }),
  });
  expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
});

it('cancels a prompt while Claude is thinking: the request is aborted and the prompt ends cancelled', async () => {
  const [first] = cassette('fantasy--TestAnthropicThinking--claude-sonnet-4--thinking-streaming.yaml');
  // The recorded answer up to the middle of its thinking, then nothing more.
  server = await replayServer([{ body: first!.body, stallAfter: first!.body.indexOf('" have"') }]);
  const model = createAISDKProvider({
    models: { normal: anthropicAt(server.url)('claude-sonnet-4-20250514') },
  });
  const { platform, calls } = weatherPlatform(model);
  const { id } = await platform.conversations.create({ userId: 'u' });
  const run = await platform.start({
    conversationId: id,
    userId: 'u',
    input: "What's the weather in Florence, Italy?",
  });
  // The request is out and part of the thinking has been sent (the platform publishes no reasoning deltas).
  await expect.poll(() => server!.requests.length).toBe(1);
  const cancelled = await platform.cancel(run.prompt.id, { userId: 'u' });
  expect(cancelled.state).toBe('cancelled');
  expect((await run.done).state).toBe('cancelled');
  expect(calls).toEqual([]);
  await expect.poll(() => server!.abandoned()).toBe(1);
});
