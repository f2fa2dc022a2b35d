import { createPlatform, createTool, definePlugin, type ToolOutput } from '@tessera/core';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAIProvider } from '../src/index.ts';
import { fixture, fixtureServer } from './fixture-server.ts';

let server: Awaited<ReturnType<typeof fixtureServer>> | undefined;
afterEach(async () => server?.close());

it('runs a whole prompt on the real SDK: a tool call from the model, the tool, then the answer', async () => {
  server = await fixtureServer([
    { body: fixture('responses-stream-function-call.sse') },
    { body: fixture('responses-stream-text.sse') },
  ]);
  const weather = createTool({
    id: 'weather',
    description: 'Weather for a location.',
    input: z.object({ location: z.string() }),
    invoke: ({ input }) => ({ location: input.location, temperature: 24 }),
  });
  const platform = createPlatform({
    plugins: [definePlugin({ id: 'weather', tools: [weather] })],
    model: createOpenAIProvider({ apiKey: 'test', baseURL: server.baseURL }),
    models: { normal: 'gpt-4o-mini' },
  });
  const { id } = await platform.conversations.create({ userId: 'u' });
  const prompt = await platform.send({ conversationId: id, userId: 'u', input: 'Weather in Florence?' });
  expect(prompt.state).toBe('completed');
  expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text']);
  expect((prompt.output[0] as ToolOutput).result).toEqual({
    type: 'success',
    output: { location: 'Florence, Italy', temperature: 24 },
  });
  expect(prompt.usage).toMatchObject({ inputTokens: 78, outputTokens: 25, modelCalls: 2 });
  const second = server.requests[1]!.body;
  expect(second.input).toEqual([
    { role: 'user', content: 'Weather in Florence?' },
    {
      type: 'function_call',
      call_id: expect.any(String),
      name: 'weather',
      arguments: '{"location":"Florence, Italy"}',
    },
    {
      type: 'function_call_output',
      call_id: expect.any(String),
      output: '{"location":"Florence, Italy","temperature":24}',
    },
  ]);
});
