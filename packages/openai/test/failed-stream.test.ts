import { createPlatform, createTool, definePlugin, type TextOutput, type ToolOutput } from '@tessera/core';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer } from './fixture-server.ts';

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

it('a connection dropped after text and a complete call: no retry, the text once, the call recorded not run', async () => {
  const body = fixture('responses-stream-text-and-function-call.sse');
  server = await fixtureServer([
    { body, dropAfter: Buffer.byteLength(body.slice(0, body.indexOf('event: response.completed'))) },
    { body }, // never asked for
  ]);
  const ran: unknown[] = [];
  const capital = createTool({
    id: 'get_capital',
    description: 'The capital of a country.',
    input: z.object({ country: z.string() }),
    invoke: ({ input }) => {
      ran.push(input);
      return 'sunny';
    },
  });
  const platform = createPlatform({
    plugins: [definePlugin({ id: 'geo', tools: [capital] })],
    model: createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL, retryBaseDelayMs: 1 }),
    models: { normal: 'gpt-4o-mini' },
  });
  const { id } = await platform.conversations.create({ userId: 'u' });
  const prompt = await platform.send({ conversationId: id, userId: 'u', input: 'Capital of PotatoLand?' });

  expect(server.requests).toHaveLength(1);
  expect(prompt.state).toBe('failed');
  expect(prompt.stopReason?.code).toBe('model_error');
  expect(prompt.stopReason?.message).toContain('Not retried');
  expect(prompt.output.map((o) => o.type)).toEqual(['reasoning', 'text', 'tool']);
  const streamed = body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)))
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => event.delta)
    .join('');
  expect((prompt.output[1] as TextOutput).text).toBe(streamed);
  const call = prompt.output[2] as ToolOutput;
  expect(call.result).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
  expect(JSON.stringify(call.result)).toContain('Not run');
  expect(ran).toEqual([]);
});

it('delivers every event that arrived before the connection dropped, even to a reader that is slow', async () => {
  const body = fixture('responses-stream-text-and-function-call.sse');
  const dropAfter = Buffer.byteLength(body.slice(0, body.indexOf('event: response.completed')));
  server = await fixtureServer([{ body, dropAfter, writeEveryMs: 1 }]);
  const provider = createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL });
  const request = {
    model: 'gpt-4o-mini',
    modelClass: 'normal' as const,
    instructions: '',
    messages: [],
    tools: [{ name: 'get_capital', description: 'Capital.', parameters: { type: 'object' } }],
  };
  const types: string[] = [];
  const error = await (async () => {
    for await (const event of provider.stream(request, new AbortController().signal)) {
      // The connection is gone long before this reader is done with its first event.
      if (types.length === 0) await new Promise((resolve) => setTimeout(resolve, 500));
      types.push(event.type);
    }
  })().catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'connection' });
  expect(types.at(-1)).toBe('tool-call');
});
